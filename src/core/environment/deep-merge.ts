// Deep merge of a DB dump with an `initialization_data` update (reference: addict `Dict.update` semantics —
// nested dicts merge recursively, lists and scalars are replaced).
import { isPyFloat } from '../py/index.ts';

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isPyFloat(v) && !(v instanceof Map);

export const deepMerge = (base: unknown, update: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = isDict(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(update)) {
    const current = out[key];
    out[key] = isDict(current) && isDict(value) ? deepMerge(current, value) : value;
  }
  return out;
};
