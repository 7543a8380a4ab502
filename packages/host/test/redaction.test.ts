import { HttpStatusError, McpError } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { expandSecrets, redact, redactError, redactorOf, redactValue, secretForms } from "../src/index.js";

const SECRET = 'p"a\\ss/wörd&=+ x';

describe("redaction", () => {
  it("redaction/every-form-a-server-may-echo", () => {
    const forms = secretForms(SECRET);
    expect(forms).toEqual(
      expect.arrayContaining([
        SECRET,
        // inside a JSON string, as JSON.stringify writes it, with "/" escaped too, and ASCII-only
        JSON.stringify(SECRET).slice(1, -1),
        'p\\"a\\\\ss\\/wörd&=+ x',
        'p\\"a\\\\ss/w\\u00f6rd&=+ x',
        // percent-encoded, as a path and as a query string writes it
        encodeURIComponent(SECRET),
        "p%22a%5Css%2Fw%C3%B6rd%26%3D%2B+x",
      ]),
    );
    const secrets = expandSecrets([SECRET, "Bearer tok-123", "tok-123", ""]);
    // longest first: "Bearer tok-123" goes whole before "tok-123" is looked for
    expect(secrets).toEqual([...secrets].sort((a, b) => b.length - a.length));
    expect(secrets).not.toContain("");
    const body = JSON.stringify({ error: `bad credentials ${SECRET}`, auth: "Bearer tok-123" });
    const query = `GET /mcp?key=${encodeURIComponent(SECRET)}`;
    const clean = redactorOf(secrets);
    expect(clean?.(body)).toBe('{"error":"bad credentials [redacted]","auth":"[redacted]"}');
    expect(clean?.(query)).toBe("GET /mcp?key=[redacted]");
    expect(redactorOf([])).toBeUndefined();
  });

  it("redaction/error-cleaned-in-place-keeping-class-and-code", () => {
    const clean = (t: string) => redact(t, expandSecrets(["s3cr3t-token"]));
    const http = new HttpStatusError(401, '{"detail":"token s3cr3t-token rejected"}');
    const same = redactError(http, clean);
    expect(same).toBe(http);
    expect(same).toBeInstanceOf(HttpStatusError);
    expect(same.code).toBe(-32009);
    expect(same.status).toBe(401);
    expect(same.body).toBe('{"detail":"token [redacted] rejected"}');
    expect(same.message).not.toContain("s3cr3t-token");
    expect(same.stack).not.toContain("s3cr3t-token");

    const cause = new Error("sent s3cr3t-token");
    const wire = new McpError(-32001, "auth s3cr3t-token", { seen: ["x s3cr3t-token"], n: 1 }, { cause });
    redactError(wire, clean);
    expect(wire.code).toBe(-32001);
    expect(wire.message).toBe("auth [redacted]");
    expect(wire.data).toEqual({ seen: ["x [redacted]"], n: 1 });
    expect(cause.message).toBe("sent [redacted]");

    // a DOMException's message is a getter: shadowed, the class kept
    const abort = redactError(new DOMException("aborted s3cr3t-token", "AbortError"), clean);
    expect(abort).toBeInstanceOf(DOMException);
    expect(abort.message).toBe("aborted [redacted]");

    // a value shared or cyclic is walked safely; untouched values come back as they were
    const shared = { t: "s3cr3t-token" };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    const out = redactValue(cyclic, clean) as Record<string, { t: string }>;
    expect(out.a?.t).toBe("[redacted]");
    expect(out.b?.t).toBe("[redacted]");
    const plain = { a: [1, "two"] };
    expect(redactValue(plain, clean)).toBe(plain);
  });
});
