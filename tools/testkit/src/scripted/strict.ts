import { validatorFor } from "../validator.js";
import type { Validate } from "./server.js";

/** The default check of a scripted server: the frame strictly against the revision in use. */
export const strictValidate: Validate = (revision, frame, forMethod) => {
  const verdict = validatorFor(revision).clientMessage(frame, forMethod === undefined ? {} : { forMethod });
  return verdict.ok ? [] : [...verdict.errors];
};
