// The runtime out of a resource, told apart from a defect: every transport answers it as capacity to ask again
// for later (HTTP 503 `overloaded` with Retry-After, OpenEnv's CAPACITY_REACHED), never as an internal error.
/** Seconds a caller is asked to wait after the runtime ran out of a resource. */
export const OVERLOAD_RETRY_SECONDS = 30;

/**
 * The runtime out of a resource rather than a defect of this code: an object over its load (the platform's
 * `overloaded` error), no file left to open a database or socket with, or a failure inside the runtime, which
 * workerd reports to the code only as `internal error; reference = …` and logs itself (at the machine's
 * open-file limit, a new object's `SQLITE_CANTOPEN` arrives so). Such a request may succeed later.
 */
export const isOverload = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  if ((err as { overloaded?: unknown }).overloaded === true) return true;
  return /SQLITE_CANTOPEN|\bEMFILE\b|too many open files|^internal error; reference = /i.test(err.message);
};
