// Test helpers for the Python-semantics modules.
import { isPyError } from '../../src/core/py/index.ts';

/** What Python prints for an exception, `Type: message`, or 'no error'; a non-Python error is rethrown. */
export const raised = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (isPyError(e)) return `${e.pyType}: ${e.message}`;
    throw e;
  }
  return 'no error';
};
