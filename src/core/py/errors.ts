// Python exceptions raised by the py helpers, identified by their Python type name, not by class identity.

/** A Python exception: `pyType` is the Python class name, `message` is `str(exc)`. */
export class PyError extends Error {
  readonly pyType: string;
  constructor(pyType: string, message: string) {
    super(message);
    this.name = pyType;
    this.pyType = pyType;
  }
}

/** True for a PyError, optionally of the given Python type (checked by name, so it survives bundling). */
export const isPyError = (e: unknown, pyType?: string): e is PyError => {
  if (!(e instanceof Error)) return false;
  const actual: unknown = (e as Error & { pyType?: unknown }).pyType;
  return typeof actual === 'string' && (pyType === undefined || actual === pyType);
};
