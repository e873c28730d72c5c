// The tools as the model-call port sends them: OpenAI function-tool schemas exactly as the reference sends them,
// and the key under which a call's unparsable arguments are kept. The port owns them, so it depends on nothing
// of the environment that defines the tools.
/**
 * Key under which a tool call keeps model-produced argument text that is not a JSON object. Such a call is
 * answered with an error tool message without running the tool, live and on replay alike.
 */
export const UNPARSED_ARGUMENTS_KEY = '__unparsed_arguments__';

/** A parameter JSON schema exactly as the reference sends it to the model (pydantic's `model_json_schema()`). */
export interface ToolParameters {
  /** Shared sub-schemas referenced from properties (pydantic emits them for enum and model parameters). */
  readonly $defs?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[];
  readonly title: 'parameters';
  readonly type: 'object';
}

/** The OpenAI function-tool schema of one tool, as the reference sends it. */
export interface ToolSchema {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: ToolParameters };
}
