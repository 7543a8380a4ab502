import { isRevision } from "../revisions.js";
import { validatorFor } from "../validator.js";
import type { Validate } from "./server.js";

/** The default check of a scripted server: the frame strictly against the revision in use. */
export const strictValidate: Validate = (revision, frame, forMethod) => {
  // A version no schema here describes (a test's own revision plugin) has nothing to check against.
  if (!isRevision(revision)) return [];
  const verdict = validatorFor(revision).clientMessage(frame, forMethod === undefined ? {} : { forMethod });
  return verdict.ok ? [] : [...verdict.errors];
};
