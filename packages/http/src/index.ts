export type { EventSourceMessage } from "eventsource-parser";
export {
  type Body,
  discard,
  type HttpAnswer,
  HttpClient,
  type HttpMethod,
  header,
  readText,
  where,
} from "./http.js";
export { readSse, type SseHandlers } from "./sse.js";
