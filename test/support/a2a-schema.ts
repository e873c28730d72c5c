// The A2A 1.0 JSON Schema (test/fixtures/a2a) as a validator: each definition registered under the id the others
// refer to it by, and the fields the protocol's proto marks REQUIRED checked beside it (the bundle leaves them out).
import { Validator } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';
import bundle from '../fixtures/a2a/a2a-v1.0.0.schema.json' with { type: 'json' };

const definitions = (bundle as unknown as { definitions: Record<string, Schema> }).definitions;

/** `Authorization CodeO Auth Flow` → `lf.a2a.v1.AuthorizationCodeOAuthFlow.jsonschema.json`; protobuf's own types under google.protobuf. */
const idOf = (title: string): string => {
  const name = title.replaceAll(' ', '');
  return ['Struct', 'Value', 'Timestamp'].includes(name) ? `google.protobuf.${name}.jsonschema.json` : `lf.a2a.v1.${name}.jsonschema.json`;
};

/** REQUIRED fields of a2a.proto (v1.0.0) for the messages an agent card is made of. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  'Agent Card': ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  'Agent Interface': ['url', 'protocolBinding', 'protocolVersion'],
  'Agent Provider': ['url', 'organization'],
  'Agent Skill': ['id', 'name', 'description', 'tags'],
  'HTTP Auth Security Scheme': ['scheme'],
};

const validator = (title: string): Validator => {
  const v = new Validator({ ...definitions[title]!, required: [...(REQUIRED[title] ?? [])] }, '2020-12', false);
  for (const [other, schema] of Object.entries(definitions)) {
    v.addSchema({ ...schema, required: [...(REQUIRED[other] ?? [])] } as Schema, idOf(other));
  }
  return v;
};

/** The schema's errors for `value` as the definition `title` (e.g. `Agent Card`); empty when it validates. */
export const a2aSchemaErrors = (title: string, value: unknown): string[] => {
  if (!(title in definitions)) throw new Error(`No A2A definition ${title}`);
  return validator(title)
    .validate(value)
    .errors.map((e) => `${e.instanceLocation}: ${e.error}`);
};
