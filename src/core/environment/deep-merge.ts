// Deep merge of a DB dump with an `initialization_data` update (reference: addict `Dict.update` semantics —
// nested dicts merge recursively, lists and scalars are replaced).
// Either side may hold a dict as a Map (index-like keys); the result keeps the representation rule of the decoder.
import { dictEntries, isPyDict, pyDictFrom } from '../py/index.ts';

type Dict = Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;

export const deepMerge = (base: unknown, update: Dict): Record<string, unknown> | Map<string, unknown> => {
  const out = new Map<string, unknown>(isPyDict(base) ? dictEntries<unknown>(base) : []);
  for (const [key, value] of dictEntries<unknown>(update)) {
    const current = out.get(key);
    out.set(key, isPyDict(current) && isPyDict(value) ? deepMerge(current, value) : value);
  }
  return pyDictFrom(out);
};
