import { describe, expect, it } from "vitest";
import {
  AuthError,
  ConfigError,
  ConnectionClosedError,
  ErrorCode,
  errorFromWire,
  ForeignOriginError,
  HeaderMismatchError,
  HttpStatusError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  InvalidResultError,
  LegacyHTTPRefusedError,
  LocalError,
  McpError,
  McpxError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  ParamHeaderError,
  ParseError,
  PluginError,
  RequestCancelledError,
  RequestTimeoutError,
  ResourceNotFoundError,
  SessionExpiredError,
  UnsupportedProtocolVersionError,
  UnsupportedVersionError,
  URLElicitationRequiredError,
} from "../src/index.js";

describe("errors", () => {
  it.each([
    [new ParseError("p"), -32700, "ParseError"],
    [new InvalidRequestError("r"), -32600, "InvalidRequestError"],
    [new MethodNotFoundError("m"), -32601, "MethodNotFoundError"],
    [new InvalidParamsError("i"), -32602, "InvalidParamsError"],
    [new InternalError("i"), -32603, "InternalError"],
    [new ResourceNotFoundError("nf"), -32002, "ResourceNotFoundError"],
    [new HeaderMismatchError("h"), -32020, "HeaderMismatchError"],
    [new MissingRequiredClientCapabilityError("c"), -32021, "MissingRequiredClientCapabilityError"],
    [new UnsupportedProtocolVersionError("v"), -32022, "UnsupportedProtocolVersionError"],
    [new URLElicitationRequiredError("u"), -32042, "URLElicitationRequiredError"],
  ])("errors/wire-codes %s", (err, code, name) => {
    expect(err).toBeInstanceOf(McpError);
    expect(err).toBeInstanceOf(McpxError);
    expect(err).not.toBeInstanceOf(LocalError);
    expect(err.code).toBe(code);
    expect(err.name).toBe(name);
    expect(err.toJSONRPC()).toEqual({ code, message: err.message });
  });

  it.each([
    [new ConnectionClosedError("c"), ErrorCode.ConnectionClosed, "ConnectionClosedError"],
    [new RequestTimeoutError("t"), ErrorCode.RequestTimeout, "RequestTimeoutError"],
    [new RequestCancelledError("x"), ErrorCode.RequestCancelled, "RequestCancelledError"],
    [new InvalidResultError("r"), ErrorCode.InvalidResult, "InvalidResultError"],
    [
      new UnsupportedVersionError("1999-01-01", ["2025-11-25"]),
      ErrorCode.UnsupportedVersion,
      "UnsupportedVersionError",
    ],
    [new LegacyHTTPRefusedError(405), ErrorCode.LegacyHTTPRefused, "LegacyHTTPRefusedError"],
    [new HttpStatusError(500, "boom"), ErrorCode.HttpStatus, "HttpStatusError"],
    [new ForeignOriginError("f"), ErrorCode.ForeignOrigin, "ForeignOriginError"],
    [new SessionExpiredError("s"), ErrorCode.SessionExpired, "SessionExpiredError"],
    [new ParamHeaderError("p"), ErrorCode.ParamHeader, "ParamHeaderError"],
    [new ConfigError("c"), ErrorCode.Config, "ConfigError"],
    [new PluginError("x", "y"), ErrorCode.Plugin, "PluginError"],
    [new AuthError("a"), ErrorCode.Auth, "AuthError"],
  ])("errors/local-codes %s", (err, code, name) => {
    expect(err).toBeInstanceOf(LocalError);
    expect(err).not.toBeInstanceOf(McpError);
    expect(err.code).toBe(code);
    expect(err.code).toBeGreaterThanOrEqual(-32019);
    expect(err.code).toBeLessThanOrEqual(-32000);
    expect(err.name).toBe(name);
  });

  it("errors/local-codes-distinct", () => {
    const local = [
      ErrorCode.ConnectionClosed,
      ErrorCode.RequestTimeout,
      ErrorCode.InvalidResult,
      ErrorCode.UnsupportedVersion,
      ErrorCode.LegacyHTTPRefused,
      ErrorCode.RequestCancelled,
      ErrorCode.ForeignOrigin,
      ErrorCode.ParamHeader,
      ErrorCode.HttpStatus,
      ErrorCode.SessionExpired,
      ErrorCode.Config,
      ErrorCode.Plugin,
      ErrorCode.Auth,
    ];
    expect(new Set(local).size).toBe(local.length);
  });

  it("errors/from-wire", () => {
    expect(errorFromWire({ code: -32002, message: "gone" })).toBeInstanceOf(ResourceNotFoundError);
    expect(errorFromWire({ code: -32602, message: "bad" })).toBeInstanceOf(InvalidParamsError);
    const v = errorFromWire({
      code: -32022,
      message: "v",
      data: { supported: ["2026-07-28"], requested: "x" },
    });
    expect(v).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect((v as UnsupportedProtocolVersionError).supported).toEqual(["2026-07-28"]);
    expect((v as UnsupportedProtocolVersionError).requested).toBe("x");
    const c = errorFromWire({ code: -32021, message: "c", data: { requiredCapabilities: { sampling: {} } } });
    expect((c as MissingRequiredClientCapabilityError).requiredCapabilities).toEqual({ sampling: {} });
    const other = errorFromWire({ code: -31999, message: "custom", data: { a: 1 } });
    expect(other.constructor).toBe(McpError);
    expect(other.toJSONRPC()).toEqual({ code: -31999, message: "custom", data: { a: 1 } });
  });

  it("errors/messages-name-the-problem", () => {
    expect(new UnsupportedVersionError("1999-01-01", ["2025-11-25", "2025-06-18"]).message).toBe(
      'server answered initialize with protocol version "1999-01-01", which mcpx does not speak (it speaks 2025-11-25, 2025-06-18)',
    );
    expect(new PluginError("mcpx-plugin-x", "cannot be found").message).toBe(
      "plugin mcpx-plugin-x: cannot be found",
    );
    expect(new HttpStatusError(404, "").message).toBe("HTTP 404 with an empty body");
    expect(new LegacyHTTPRefusedError(405).status).toBe(405);
  });
});
