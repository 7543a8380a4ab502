/**
 * Hostile clients of mcpx's /mcp, /sse and /messages, byte for byte: malformed JSON-RPC, methods
 * named like Object.prototype's members, lone surrogates, NULs, duplicate keys and `__proto__`
 * keys, bodies over the bound, wrong media types, and mirrored headers that are injected,
 * duplicated, non-ASCII or huge. Each gets a refusal that says what was wrong (the HTTP status and
 * a JSON-RPC error), mcpx stays up, and a well-behaved client's call right after is answered.
 * (Deep JSON is deep-json.test.ts; the refusals already named in gateway-http*.test.ts are not
 * repeated here.)
 */
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { echo, httpGateway, legacySession, mirrored, modernBody, post } from "./gateway-http.helpers.js";
import {
  answerOf,
  expectRefusal,
  head,
  modernHead,
  rawRequest,
  rawSocket,
  stillServes,
} from "./hostile-clients.helpers.js";

const a = { name: "a", versions: ["2025-06-18"], tools: [echo] };
const META = JSON.stringify(modernBody("x").params._meta);

describe("hostile clients: frames and bodies", () => {
  it("hostile-client/malformed-json-rpc-refused-naming-the-fault", async () => {
    const { url } = await httpGateway([a]);
    const modern = mirrored("tools/list");
    const cases: [string, number, string][] = [
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"', -32700, "frame is not valid JSON"],
      ['"just a string"', -32600, 'is not a JSON object (got "just a string")'],
      ['{"jsonrpc":2,"id":1,"method":"tools/list"}', -32600, '"jsonrpc" must be "2.0" (got number 2)'],
      ['{"id":1,"method":"tools/list"}', -32600, '"jsonrpc" must be "2.0" (got nothing)'],
      [
        '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
        -32600,
        '"id" of tools/list must be a string or a number (got an object)',
      ],
      ['{"jsonrpc":"2.0","id":[1],"method":"tools/list"}', -32600, "(got an array)"],
      ['{"jsonrpc":"2.0","id":true,"method":"tools/list"}', -32600, "(got boolean true)"],
      ['{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}', -32600, "(got number Infinity)"],
      ['{"jsonrpc":"2.0","id":1,"method":42}', -32600, '"method" must be a non-empty string (got number 42)'],
      ['{"jsonrpc":"2.0","id":1,"method":""}', -32600, '"method" must be a non-empty string (got "")'],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}',
        -32600,
        '"params" of tools/list must be an object (got "x")',
      ],
      ['{"jsonrpc":"2.0","id":1}', -32600, 'must then hold exactly one of "result" or "error"'],
      ["[]", -32600, "batch is an empty array"],
      ['[1,"x"]', -32600, "batch element 0 is not a JSON object (got number 1)"],
      [
        JSON.stringify([modernBody("tools/list"), modernBody("tools/list")]),
        -32600,
        "a batch needs a 2025-03-26 session",
      ],
      ['{"jsonrpc":"2.0","id":7,"result":{}}', -32600, "a response needs a session"],
    ];
    for (const [body, code, named] of cases) {
      const answer = await answerOf(await post(url, body, modern));
      expectRefusal(answer, 400, named, code);
      expect(answer.json, body).not.toHaveProperty("id");
    }
    // a method nobody has: not found, with the request's id (404 for 2026-07-28)
    const unknown = await answerOf(
      await post(url, modernBody("nope/nothing", {}, 9), mirrored("nope/nothing")),
    );
    expectRefusal(unknown, 404, "Method not found: nope/nothing", -32601);
    expect(unknown.json.id).toBe(9);
    // in a 2025-06-18 session: no batches in that revision, unknown methods, a response to nothing
    const s = await legacySession(url, "2025-06-18");
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    expectRefusal(
      await answerOf(await post(url, [ping, { ...ping, id: 2 }], s.headers)),
      400,
      "JSON-RPC batches are not part of 2025-06-18 (only 2025-03-26 has them)",
    );
    expect((await s.request("nope/nothing")).body).toMatchObject({ error: { code: -32601 } });
    const stray = await post(url, { jsonrpc: "2.0", id: 424242, result: {} }, s.headers);
    expect(stray.status).toBe(202);
    expect((await s.request("ping")).body).toMatchObject({ result: {} });
    await stillServes(url);
  });

  it("hostile-client/methods-named-like-object-prototype-members-are-not-found", async () => {
    const { url, scripted } = await httpGateway([a]);
    const names = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];
    for (const method of names) {
      // no Mcp-Name: only tools/call, prompts/get and resources/read mirror one
      const answer = await answerOf(await post(url, modernBody(method, {}, 1), mirrored(method)));
      expectRefusal(answer, 404, `Method not found: ${method}`, -32601);
    }
    const s = await legacySession(url, "2025-11-25");
    for (const method of names) {
      const { res, body } = await s.request(method, {});
      expect(res.status).toBe(200);
      expect(body.error, method).toMatchObject({ code: -32601, message: `Method not found: ${method}` });
      expect(body).not.toHaveProperty("result");
    }
    // none was taken for a list and sent upstream
    const sent = scripted.a!.frames().map((f) => f.method);
    for (const method of names) expect(sent).not.toContain(method);
    expect(sent.filter((m) => m === undefined)).toEqual([]);
    await stillServes(url);
  });

  it("hostile-client/lone-surrogates-nuls-and-duplicate-keys-stay-data", async () => {
    const { url, scripted } = await httpGateway([a]);
    // a lone surrogate and a NUL in the id and in an argument: answered and forwarded as sent
    const odd = '"\\ud800x\\u0000"';
    const call = `{"jsonrpc":"2.0","id":${odd},"method":"tools/call","params":{"name":"a__echo","arguments":{"text":"\\udc00\\u0000y"},"_meta":${META}}}`;
    const res = await post(url, call, mirrored("tools/call", "a__echo"));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; result: { content: { text: string }[] } };
    expect(body.id).toBe("\ud800x\u0000");
    expect(JSON.parse(body.result.content[0]?.text ?? "")).toEqual({ text: "\udc00\u0000y" });
    expect(scripted.a!.frames("tools/call").at(-1)?.params).toMatchObject({
      arguments: { text: "\udc00\u0000y" },
    });
    // duplicate keys: the last one counts, for the header check and for the answer alike
    const dup = `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","method":"tools/list","params":{"_meta":${META}}}`;
    const asList = await post(url, dup, mirrored("tools/list"));
    expect(asList.status).toBe(200);
    expect(await asList.json()).toMatchObject({ id: 2, result: { tools: [{ name: "a__echo" }] } });
    const asCall = await answerOf(await post(url, dup, mirrored("tools/call", "a__echo")));
    expectRefusal(
      asCall,
      400,
      "Mcp-Method header value 'tools/call' does not match body value 'tools/list'",
      -32020,
    );
    await stillServes(url);
  });

  it("hostile-client/__proto__-keys-stay-data", async () => {
    const { url, gateway, scripted } = await httpGateway([a]);
    const polluted = () => Object.keys(Object.prototype).length + ("polluted" in {} ? 1 : 0);
    const before = polluted();
    const proto = '"__proto__":{"polluted":true,"sampling":{},"name":"forged"}';
    const call = `{"jsonrpc":"2.0",${proto},"id":3,"method":"tools/call","params":{${proto},"name":"a__echo","arguments":{${proto},"text":"p"},"_meta":{${proto},${META.slice(1)}}}`;
    const res = await post(url, call, mirrored("tools/call", "a__echo"));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { result: { content: { text: string }[] } };
    // forwarded as the data it is: an own key of the arguments, nothing else
    const forwarded = JSON.parse(answer.result.content[0]?.text ?? "") as JSONObject;
    expect(Object.hasOwn(forwarded, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(forwarded)).toBe(Object.prototype);
    const upstream = scripted.a!.frames("tools/call").at(-1)?.params?.arguments as JSONObject;
    expect(Object.hasOwn(upstream, "__proto__")).toBe(true);
    expect(upstream.text).toBe("p");
    // a legacy client's capabilities and clientInfo: what it declares is only what it declares
    const init = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{${proto}},"clientInfo":{${proto},"version":"1"}}}`;
    const opened = await post(url, init, { "content-type": "application/json", accept: "application/json" });
    expect(opened.status).toBe(200);
    const peer = gateway.peers.at(-1) as unknown as { capabilities: JSONObject; clientInfo: JSONObject };
    expect(peer.capabilities.sampling).toBeUndefined();
    expect(peer.clientInfo.name).toBeUndefined();
    expect(Object.getPrototypeOf(peer.capabilities)).toBe(Object.prototype);
    // and nothing of mcpx's (nor of anyone's) objects changed
    expect(polluted()).toBe(before);
    expect(({} as JSONObject).polluted).toBeUndefined();
    await stillServes(url);
  });

  it("hostile-client/body-over-maxBodyBytes-refused-unread", async () => {
    const { url } = await httpGateway([a], { maxBodyBytes: 1024 });
    const port = Number(new URL(url).port);
    // 1 GiB announced, none of it sent: the refusal comes from the headers alone
    const announced = rawSocket(port);
    const gib = Object.entries(mirrored("tools/list")).concat([["content-length", String(1 << 30)]]);
    announced.write(head("POST", "/mcp", gib as [string, string][]).replace("connection: close\r\n", ""));
    const refused = await announced.answer();
    expectRefusal(refused, 413, "Payload Too Large: the body exceeds 1024 bytes");
    expect(refused.headers.connection).toBe("close");
    expect(refused.json.error?.data).toEqual({ maxBodyBytes: 1024 });
    // chunked, no length: refused once past the bound while the client is still sending
    const chunked = rawSocket(port);
    const headers = Object.entries(mirrored("tools/list"))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    chunked.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}transfer-encoding: chunked\r\n\r\n`);
    const timer = setInterval(() => chunked.write(`200\r\n${"x".repeat(512)}\r\n`), 5);
    expectRefusal(await chunked.answer(), 413, "1024 bytes");
    clearInterval(timer);
    await stillServes(url);
  });

  it("hostile-client/wrong-content-type-and-accept-refused-on-every-endpoint", async () => {
    const { url, base } = await httpGateway([a]);
    const list = modernBody("tools/list");
    const s = await legacySession(url, "2025-11-25");
    const port = Number(new URL(url).port);
    const text = JSON.stringify(list);
    const types = [
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
    ];
    for (const type of types) {
      const got = type === undefined ? "no Content-Type" : JSON.stringify(type);
      for (const [path, headers] of [
        ["/mcp", mirrored("tools/list")],
        ["/mcp", s.headers],
        ["/messages?sessionId=x", {}],
      ] as const) {
        const pairs = Object.entries(headers).filter(([k]) => k !== "content-type");
        if (type !== undefined) pairs.push(["content-type", type]);
        pairs.push(["content-length", String(text.length)]);
        const answer = await rawRequest(port, head("POST", path, pairs), text);
        expectRefusal(answer, 415, `a POST body must be application/json (got ${got})`);
      }
    }
    // an Accept that allows nothing mcpx can answer with
    for (const accept of ["text/html", "application/json;q=0, text/event-stream;q=0", "image/*"]) {
      const answer = await answerOf(await post(url, list, { ...mirrored("tools/list"), accept }));
      expectRefusal(
        answer,
        406,
        "Not Acceptable: the Accept header must allow application/json or text/event-stream",
      );
    }
    const listen = modernBody("subscriptions/listen", { notifications: {} }, 5);
    const noSse = await answerOf(
      await post(url, listen, { ...mirrored("subscriptions/listen"), accept: "application/json" }),
    );
    expectRefusal(noSse, 406, "text/event-stream (subscriptions/listen)");
    expect(noSse.json.id).toBe(5);
    const sseJson = await answerOf(await fetch(`${base}/sse`, { headers: { accept: "application/json" } }));
    expectRefusal(sseJson, 406, "the Accept header must allow text/event-stream");
    // methods an endpoint does not take, with the ones it does in Allow
    for (const [target, method, allow] of [
      [url, "PUT", "GET, POST, DELETE"],
      [url, "PATCH", "GET, POST, DELETE"],
      [url, "OPTIONS", "GET, POST, DELETE"],
      [`${base}/sse`, "POST", "GET"],
      [`${base}/messages`, "GET", "POST"],
      [`${base}/messages`, "DELETE", "POST"],
    ] as const) {
      const res = await fetch(target, { method });
      expectRefusal(await answerOf(res), 405, "Method Not Allowed");
      expect(res.headers.get("allow")).toBe(allow);
    }
    await stillServes(url);
  });

  it("hostile-client/mirrored-headers-injected-duplicated-non-ascii-or-huge-refused", async () => {
    const { url } = await httpGateway([a]);
    const port = Number(new URL(url).port);
    const body = JSON.stringify(modernBody("tools/call", { name: "a__echo", arguments: { text: "x" } }));
    const h = modernHead("tools/call", body, "a__echo");
    const send = (headers: [string, string][]) => rawRequest(port, head("POST", "/mcp", headers), body);
    const named = (v: string) => send(h.map(([k, hv]) => [k, k === "mcp-name" ? v : hv]));
    // a bare CR or LF, a NUL or another control character inside a value: HTTP itself is broken
    for (const bad of [
      "a__echo\rX-Injected: 1",
      "a__echo\nX-Injected: 1",
      "a__\u0000echo",
      "a__\u0001echo",
    ]) {
      expectRefusal(await named(bad), 400, /^Bad Request: the request is not valid HTTP\/1\.1 \(HPE_/);
    }
    // a CRLF that makes a second header of the same name: the two do not make one value
    const injected = await named("a__echo\r\nMcp-Name: a__other");
    expectRefusal(injected, 400, "Mcp-Name header value 'a__echo, a__other' does not match", -32020);
    // non-ASCII bytes, unencoded: -32020 naming the header
    const raw = (k: string, v: string) => send(h.map(([hk, hv]) => [hk, hk === k ? v : hv]));
    expectRefusal(
      await raw("mcp-name", "a__\u00e9cho"),
      400,
      "Mcp-Name header value has characters a header cannot carry plainly",
      -32020,
    );
    expectRefusal(await raw("mcp-method", "tools/call\u00ff"), 400, "Mcp-Method header value", -32020);
    expectRefusal(
      await raw("mcp-protocol-version", "2026-07-28\u00a0"),
      400,
      "MCP-Protocol-Version header value",
      -32020,
    );
    // a mirrored header twice, even with the same value twice: one value is one header
    for (const name of ["mcp-protocol-version", "mcp-method", "mcp-name"] as const) {
      const value = h.find(([k]) => k === name)?.[1] ?? "";
      const answer = await send([...h, [name, value]]);
      expectRefusal(answer, 400, `header value '${value}, ${value}' does not match body value`, -32020);
    }
    // headers past Node's bound (16 KiB): 431, said in JSON
    const huge = await send([...h, ["mcp-param-x", "y".repeat(20_000)]]);
    expectRefusal(huge, 431, /^Request Header Fields Too Large: the request's headers exceed \d+ bytes/);
    await stillServes(url);
  });
});
