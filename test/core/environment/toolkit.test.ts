// Tool execution errors: CPython's argument-binding messages, unknown tools, unparseable arguments.
import { describe, expect, it } from 'vitest';
import { bindArguments } from '../../../src/core/environment/toolkit.ts';
import { newEnvironment } from '../../support/domains.ts';
import { UNPARSED_ARGUMENTS_KEY } from '../../../src/core/llm/tool-schema.ts';

const params = [
  { name: 'user_id', hasDefault: false },
  { name: 'title', hasDefault: false },
  { name: 'description', hasDefault: true, default: null },
];

describe('bindArguments (CPython keyword binding)', () => {
  it("one missing argument → \"missing 1 required positional argument: 'title'\"", () => {
    expect(() => bindArguments('MockTools.create_task', params, { user_id: 'u' })).toThrow(
      "MockTools.create_task() missing 1 required positional argument: 'title'",
    );
  });

  it("two missing arguments are joined with 'and'", () => {
    expect(() => bindArguments('MockTools.create_task', params, {})).toThrow(
      "MockTools.create_task() missing 2 required positional arguments: 'user_id' and 'title'",
    );
  });

  it('three missing arguments use the Oxford comma', () => {
    const three = [...params.slice(0, 2), { name: 'c', hasDefault: false }];
    expect(() => bindArguments('T.f', three, {})).toThrow(
      "T.f() missing 3 required positional arguments: 'user_id', 'title', and 'c'",
    );
  });

  it('an unexpected keyword is reported before missing ones', () => {
    expect(() => bindArguments('MockTools.create_task', params, { extra: 1 })).toThrow(
      "MockTools.create_task() got an unexpected keyword argument 'extra'",
    );
  });

  it('defaults fill omitted optional parameters', () => {
    expect(bindArguments('T.f', params, { user_id: 'u', title: 't' })).toEqual({ user_id: 'u', title: 't', description: null });
  });
});

describe('malformed tool calls through the environment', () => {
  it("unknown tool → \"Error: Tool 'nonexistent_tool' not found.\"", async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse({ id: 'x', name: 'nonexistent_tool', arguments: {}, requestor: 'assistant' });
    expect(msg).toMatchObject({ error: true, content: "Error: Tool 'nonexistent_tool' not found." });
  });

  it('wrong argument type reaches the tool unvalidated and fails as the reference does', async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse({ id: 'x', name: 'create_task', arguments: { user_id: 123, title: 'T' }, requestor: 'assistant' });
    expect(msg).toMatchObject({ error: true, content: 'Error: User 123 not found' });
  });

  it('an unhashable argument fails with Python\'s TypeError text', async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse({ id: 'x', name: 'create_task', arguments: { user_id: ['u'], title: 'T' }, requestor: 'assistant' });
    expect(msg).toMatchObject({ error: true, content: "Error: unhashable type: 'list'" });
  });

  it('a non-string title fails pydantic validation of the Task model', async () => {
    const env = await newEnvironment('mock');
    const msg = env.getResponse({ id: 'x', name: 'create_task', arguments: { user_id: 'user_1', title: 5 }, requestor: 'assistant' });
    expect(msg.error).toBe(true);
    expect(msg.content).toBe(
      'Error: 1 validation error for Task\ntitle\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n' +
        '    For further information visit https://errors.pydantic.dev/2.12/v/string_type',
    );
  });

  it('arguments that were not a JSON object are refused without running the tool', async () => {
    const env = await newEnvironment('mock');
    const before = env.agentDb;
    const msg = env.getResponse({
      id: 'x',
      name: 'create_task',
      arguments: { [UNPARSED_ARGUMENTS_KEY]: '{"user_id": "user_1", "title": ' },
      requestor: 'assistant',
    });
    expect(msg.error).toBe(true);
    expect(msg.content).toContain('not a valid JSON object');
    expect(env.agentDb).toBe(before);
  });
});
