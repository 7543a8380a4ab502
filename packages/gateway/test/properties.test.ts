/**
 * The namespace mapping, checked on generated inputs (fast-check: 100 runs each; a failure prints
 * its seed and the shrunk counterexample, so it replays exactly). Namespaces are whatever the
 * config's pattern lets through, loaded through the config loader as a user's file would be.
 */
import { NAMESPACE_PATTERN, parseConfig } from "@mcpx/config";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Namespaces } from "../src/namespaces.js";

const namespacePattern = new RegExp(NAMESPACE_PATTERN);
/** Namespaces the config accepts, with "_" and "-" often, at the edges too. */
const namespace = fc
  .string({ unit: fc.constantFrom("a", "B", "7", "_", "-", "_"), minLength: 1, maxLength: 8 })
  .filter((ns) => namespacePattern.test(ns));

/** Servers s0, s1, … with distinct namespaces, as the config loader makes them. */
const servers = fc.uniqueArray(namespace, { minLength: 1, maxLength: 4 }).map((namespaces) => {
  const entries = Object.fromEntries(namespaces.map((ns, i) => [`s${i}`, { command: "x", namespace: ns }]));
  return Object.values(parseConfig({ servers: entries }, { env: {} }).servers);
});

/** Any name or URI an upstream may use, with the separator and the scheme in it often. */
const original = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: fc.constantFrom("_", "a", "/", ":", "-") }),
  fc.webUrl(),
);

describe("properties", () => {
  it("properties/namespace-mapping-reversible-for-any-names", () => {
    fc.assert(
      fc.property(servers, original, (list, x) => {
        const ns = new Namespaces(list);
        for (const server of list) {
          expect(ns.parseName(ns.name(server, x))).toEqual({ server: server.name, original: x });
          expect(ns.parseUri(ns.uri(server, x))).toEqual({ server: server.name, original: x });
        }
      }),
    );
    // Two different (server, name) pairs never share an exposed name or URI.
    fc.assert(
      fc.property(servers, fc.nat(), original, fc.nat(), original, (list, i, x, j, y) => {
        const ns = new Namespaces(list);
        const a = list[i % list.length];
        const b = list[j % list.length];
        if (!a || !b || (a === b && x === y)) return;
        expect(ns.name(a, x)).not.toBe(ns.name(b, y));
        expect(ns.uri(a, x)).not.toBe(ns.uri(b, y));
      }),
    );
  });
});
