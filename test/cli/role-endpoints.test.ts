// `api_base` in `--agent-llm-args` / `--user-llm-args` / `--judge-llm-args` (litellm's per-call API root): that
// role's calls go to that endpoint with the key and byte-exact payload they would have on the default one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { parseRunFlags } from '../../src/cli/run/flags.ts';

let main: FakeOpenAI;
let second: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  [main, second] = await Promise.all([startFakeOpenAI(), startFakeOpenAI()]);
  main.setHandler(mockConversation());
  second.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-api-base-'));
});
afterAll(async () => {
  await Promise.all([main.close(), second.close()]);
  await rm(dir, { recursive: true, force: true });
});

const run = (name: string, ...flags: string[]) =>
  capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user',
    '--llm-base-url', main.baseURL, '--save-to', path.join(dir, name), ...flags]);

const bodiesOf = (fake: FakeOpenAI, from: number, model: string) =>
  fake.requests.slice(from).filter((r) => (r.body as { model: string }).model === model).map((r) => r.bodyText);

describe('api_base per role', () => {
  it("the agent's api_base gets the agent's calls, byte for byte as the default endpoint gets them; the user stays", async () => {
    const before = main.requests.length;
    expect((await run('default.json')).code).toBe(0);
    const defaultAgent = bodiesOf(main, before, 'fake-agent');
    expect(defaultAgent.length).toBeGreaterThan(0);

    const [mainFrom, secondFrom] = [main.requests.length, second.requests.length];
    const routed = await run('routed.json', '--agent-llm-args', `{"temperature": 0.0, "api_base": "${second.baseURL}"}`);
    expect(routed.code, routed.errors).toBe(0);
    expect(bodiesOf(main, mainFrom, 'fake-agent')).toEqual([]);
    expect(bodiesOf(second, secondFrom, 'fake-agent')).toEqual(defaultAgent);
    expect(bodiesOf(second, secondFrom, 'fake-user')).toEqual([]);
    expect(bodiesOf(main, mainFrom, 'fake-user').length).toBeGreaterThan(0);
    expect(second.requests.slice(secondFrom).every((r) => r.path === '/v1/chat/completions' && r.headers.authorization === main.requests[mainFrom]!.headers.authorization)).toBe(true);
  });

  it('refuses an api_base that is not a string, or for a model of another provider, naming the flag', () => {
    expect(() => parseRunFlags(['--domain', 'mock', '--user-llm-args', '{"api_base": 5}'])).toThrow('--user-llm-args: api_base must be a URL string');
    expect(() => parseRunFlags(['--domain', 'mock', '--judge-llm', 'anthropic/claude-sonnet-4-5', '--judge-llm-args', '{"api_base": "http://127.0.0.1:9/v1"}'])).toThrow(
      '--judge-llm-args: api_base is honoured for OpenAI-compatible models; anthropic/claude-sonnet-4-5 goes to its own provider',
    );
  });
});
