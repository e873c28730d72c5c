// Python value semantics for the engine: number kinds, formatting, json, repr, textwrap, random, hashing.
export { PyError, isPyError } from './errors.ts';
export type { PyInput, PyJsonable, PyValue } from './value.ts';
export {
  dictEntries,
  dictGet,
  dictHasKey,
  dictKeys,
  intRepr,
  isIndexLikeKey,
  isPlainDict,
  isPyDict,
  isPyJsonable,
  isPyMap,
  pyDictFrom,
} from './value.ts';
export {
  PyFloat,
  add,
  floordiv,
  isFloatValue,
  isIntValue,
  isPyFloat,
  mod,
  mul,
  neg,
  pow,
  pyFloat,
  pyRound,
  pyRoundBuiltin,
  pyTypeName,
  sub,
  toNumber,
  truediv,
} from './float.ts';
export type { PyNumber } from './float.ts';
export { floatRepr, formatFixed, roundFloatNumber } from './float-format.ts';
export { compare, compareStrings, pyEquals } from './compare.ts';
export { DuplicateKeyError, PyJsonDecodeError, dumpsPy, encodeJsonString, parsePyJson } from './json.ts';
export type { DumpsOptions } from './json.ts';
export { pyRepr, pyStr, strRepr } from './repr.ts';
export { hasNonSpace, splitlines, textwrapIndent } from './textwrap.ts';
export { TomlDecodeError, parseToml } from './toml.ts';
export { PyRandom } from './random.ts';
export { pyDictHash, sha256Hex } from './hash.ts';
export { pyFormatFixed, pyTitle, pyToFloat } from './format.ts';
