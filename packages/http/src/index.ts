export type { EventSourceMessage } from "eventsource-parser";
export { sendWithCredentials } from "./credentials.js";
export {
  type Body,
  type BoundedText,
  discard,
  ERROR_BODY_BYTES,
  type HttpAnswer,
  HttpClient,
  type HttpMethod,
  header,
  readBounded,
  readText,
  where,
} from "./http.js";
export { readSse, type SseHandlers, type SseLimits } from "./sse.js";
