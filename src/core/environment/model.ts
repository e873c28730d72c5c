// Building a DB model inside a tool, with pydantic's validation error text when an argument has the wrong type.
import { z } from 'zod';
import { isPyMap, pyRepr, pyTypeName } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { ToolError } from './errors.ts';

/** The pydantic minor version whose documentation URL appears in validation errors. */
export const PYDANTIC_DOCS_VERSION = '2.12';

/** Marks the issues of `pyEnum` fields, which pydantic reports as `enum` rather than `literal_error`. */
const PY_ENUM_ISSUE = 'python enum value';

/** A pydantic field typed by a `str` Enum class (as opposed to a `Literal`): same values, its own error type. */
export const pyEnum = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: PY_ENUM_ISSUE });

const expectedTypes: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['int_type', 'Input should be a valid integer'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  map: ['dict_type', 'Input should be a valid dictionary'],
};

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The input's repr as pydantic shows it: one longer than 50 bytes (UTF-8) keeps its first 25 and last 24 bytes
 * around "...", cut at character boundaries (inward).
 */
export const inputRepr = (input: unknown): string => {
  const repr = pyRepr(input as PyValue);
  const bytes = utf8.encode(repr);
  if (bytes.length <= 50) return repr;
  const isContinuation = (i: number) => (bytes[i]! & 0xc0) === 0x80;
  let head = 25;
  while (head > 0 && isContinuation(head)) head -= 1;
  let tail = bytes.length - 24;
  while (tail < bytes.length && isContinuation(tail)) tail += 1;
  return `${utf8Decoder.decode(bytes.subarray(0, head))}...${utf8Decoder.decode(bytes.subarray(tail))}`;
};

const literalList = (values: readonly unknown[]): string => {
  const quoted = values.map((v) => pyRepr(v as PyValue));
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
};

const valueAt = (data: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (node, key) => (isPyMap(node) ? node.get(String(key)) : (node as Record<PropertyKey, unknown> | undefined)?.[key]),
    data,
  );

const describeIssue = (issue: z.core.$ZodIssue, data: unknown): string => {
  const path = issue.path;
  const input = valueAt(data, path);
  let type: string;
  let message: string;
  let shown: unknown = input;
  const pydanticType = issue.code === 'custom' ? (issue.params as { pydanticType?: unknown } | undefined)?.pydanticType : undefined;
  if (input === undefined) {
    [type, message] = ['missing', 'Field required'];
    shown = valueAt(data, path.slice(0, -1));
  } else if (typeof pydanticType === 'string') {
    [type, message] = [pydanticType, issue.message];
  } else if (issue.code === 'invalid_value') {
    const kind = issue.message === PY_ENUM_ISSUE ? 'enum' : 'literal_error';
    [type, message] = [kind, `Input should be ${literalList(issue.values)}`];
  } else if (issue.code === 'invalid_type') {
    [type, message] = expectedTypes[issue.expected] ?? ['value_error', issue.message];
  } else {
    [type, message] = ['value_error', issue.message];
  }
  const loc = path.map(String).join('.');
  return (
    `${loc}\n  ${message} [type=${type}, input_value=${inputRepr(shown)}, input_type=${pyTypeName(shown)}]\n` +
    `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/${type}`
  );
};

/** An extra key of a model that forbids extras, reported per key as pydantic does. */
const describeExtraKey = (path: readonly PropertyKey[], data: unknown): string => {
  const input = valueAt(data, path);
  return (
    `${path.map(String).join('.')}\n  Extra inputs are not permitted [type=extra_forbidden, input_value=${inputRepr(input)}, input_type=${pyTypeName(input)}]\n` +
    `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/extra_forbidden`
  );
};

/** `Model(**data)`: returns the validated model or throws pydantic's ValidationError text as a ToolError. */
export const constructModel = <S extends z.ZodType>(modelName: string, schema: S, data: unknown): z.output<S> => {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => describeExtraKey([...issue.path, key], data))
      : [describeIssue(issue, data)],
  );
  const header = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${modelName}`;
  throw new ToolError([header, ...errors].join('\n'));
};
