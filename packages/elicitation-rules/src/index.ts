export {
  acceptedContent,
  checkFormAnswer,
  fieldProblems,
  formFields,
  parseFields,
  requiredFields,
  withDefaults,
} from "./form.js";
export { checkElicitationUrl, isLoopbackHostname, type UrlVerdict } from "./url.js";
