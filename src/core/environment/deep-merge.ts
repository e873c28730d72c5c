// Deep merge of a DB dump with an `initialization_data` update (reference: addict `Dict.update` semantics —
// nested dicts merge recursively, lists and scalars are replaced).
import { isPlainDict } from '../py/index.ts';

export const deepMerge = (base: unknown, update: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = isPlainDict(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(update)) {
    const current = out[key];
    out[key] = isPlainDict(current) && isPlainDict(value) ? deepMerge(current, value) : value;
  }
  return out;
};
