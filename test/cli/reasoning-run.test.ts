// Reasoning models in process: an episode whose agent is Anthropic with extended thinking, Gemini 3, or an
// OpenAI Responses model (on its role's api_base), against scripted servers that refuse a request missing the
// agent's reasoning state. The run has no infrastructure error, its results file keeps each turn's state, and
// `evaluate-trajs` re-grades it identically.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { capture } from '../support/cli.ts';
import { endsWithToolResult, startFakeNative } from '../support/fake-native.ts';
import type { FakeNative, NativeReply, NativeRequest } from '../support/fake-native.ts';
import { evaluateTrajs } from '../support/regrade.ts';
import { trajectoryPage } from '../../src/viewer/pages/trajectory.ts';
import { recordedUsage } from '../../src/core/metrics/role-usage.ts';

const VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_BASE_URL', 'OPENAI_API_KEY'] as const;
const USER = 'gemini/gemini-3-flash-preview';

let native: FakeNative;
let dir: string;
const saved: Partial<Record<(typeof VARS)[number], string>> = {};

/** The simulated user (Gemini 3, its own turns as `model`) asks once, then stops; the agent thinks, creates the task, confirms. */
const script = (request: NativeRequest): NativeReply => {
  if (request.provider === 'google' && request.model === USER.slice('gemini/'.length)) {
    return request.transcript.some((t) => t.startsWith('model: ')) ? { kind: 'text', text: 'Thanks! ###STOP###' } : { kind: 'text', text: 'Please create a task called Important Meeting for user_1.' };
  }
  return endsWithToolResult(request)
    ? { kind: 'text', text: 'Your task Important Meeting has been created.', reasoning: 'The task exists now.' }
    : { kind: 'tool', name: 'create_task', input: { user_id: 'user_1', title: 'Important Meeting' }, reasoning: 'I need to create the task.' };
};

beforeAll(async () => {
  native = await startFakeNative();
  native.setHandler(script);
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-reasoning-'));
  for (const name of VARS) saved[name] = process.env[name];
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: 'sk-ant-reasoning-test',
    ANTHROPIC_BASE_URL: native.anthropicURL,
    GEMINI_API_KEY: 'gm-reasoning-test',
    GOOGLE_GENERATIVE_AI_BASE_URL: native.googleURL,
    OPENAI_API_KEY: 'sk-openai-reasoning-test',
  });
});
afterAll(async () => {
  for (const name of VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await native.close();
  await rm(dir, { recursive: true, force: true });
});

const AGENTS = [
  { agent: 'anthropic/claude-sonnet-4-5', args: () => '{"thinking": {"type": "enabled", "budget_tokens": 2048}, "max_tokens": 4096, "temperature": 0.0}', provider: 'anthropic' },
  { agent: 'gemini/gemini-3-pro-preview', args: () => '{"reasoning_effort": "high"}', provider: 'google' },
  { agent: 'openai/responses/gpt-5', args: () => `{"reasoning_effort": "low", "api_base": "${native.responsesURL}"}`, provider: 'openai.responses' },
] as const;

describe('tau2-edge run --in-process with reasoning models', () => {
  it.each(AGENTS)('$agent: its reasoning state goes back to it, is kept in the results, and re-grades identically', async ({ agent, args, provider }) => {
    const file = path.join(dir, `${provider}.json`);
    const refusedBefore = native.refusals.length;
    const { code, text } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--max-retries', '0',
      '--agent-llm', agent, '--agent-llm-args', args(), '--user-llm', USER, '--save-to', file]);
    expect(code, text).toBe(0);
    expect(native.refusals.slice(refusedBefore)).toEqual([]);
    expect(text).toMatch(/task create_task_1 trial 0: user_stop, reward 1\.0/);
    const saved = await readFile(file, 'utf8');
    const [simulation] = ResultsSchema.parse(parsePyJson(saved)).simulations;
    const call = simulation!.messages!.find((m) => m.role === 'assistant' && m.tool_calls !== null);
    expect(call?.role === 'assistant' && call.provider_state).toMatchObject({ provider, model: agent });
    if (provider !== 'openai.responses') expect(call?.role === 'assistant' && call.provider_state?.reasoning).toBe('I need to create the task.');
    const regraded = await evaluateTrajs('mock', saved);
    expect(regraded.lines.at(-1)).toBe('agree 1 / 1');
  });

  it("records the agent's cached and reasoning tokens in the simulation's usage, each token priced once", async () => {
    const agentUsage = async (provider: string) => {
      const [simulation] = ResultsSchema.parse(parsePyJson(await readFile(path.join(dir, `${provider}.json`), 'utf8'))).simulations;
      const messages = simulation!.messages!.flatMap((m) => (m.role === 'assistant' && m.usage !== null ? [m] : []));
      return { messages: messages.map((m) => m.usage), messageCost: messages.reduce((sum, m) => sum + (m.cost?.value ?? 0), 0), usage: recordedUsage(simulation!)!.agent };
    };
    // claude-sonnet-4-5 (genai-prices): $3 input, $0.30 cache read, $3.75 cache write, $15 output per million tokens.
    // The prompt count includes the cached tokens: the uncached rest is priced at the input rate, the cached at theirs.
    const anthropic = await agentUsage('anthropic');
    const [first, second] = anthropic.messages as { prompt_tokens: number; cache_read_tokens?: number; cache_write_tokens?: number }[];
    const cached = first!.cache_write_tokens!;
    expect(cached).toBeGreaterThan(0);
    expect(anthropic.messages).toEqual([
      { completion_tokens: 6, prompt_tokens: 12 + cached, cache_write_tokens: cached },
      { completion_tokens: 6, prompt_tokens: second!.prompt_tokens, cache_read_tokens: cached },
    ]);
    expect(anthropic.usage).toMatchObject({ calls: 2, prompt_tokens: first!.prompt_tokens + second!.prompt_tokens, completion_tokens: 12, cache_write_tokens: cached, cache_read_tokens: cached, reasoning_tokens: 0, unpriced_models: [] });
    const anthropicUSD = (first!.prompt_tokens - cached + second!.prompt_tokens - cached) * 3e-6 + cached * 3.75e-6 + cached * 0.3e-6 + 12 * 15e-6;
    expect(anthropic.usage.cost).toBeCloseTo(anthropicUSD, 12);
    expect(anthropic.messageCost).toBeCloseTo(anthropicUSD, 12);

    // gpt-5 (genai-prices): $1.25 input, $10 output per million; its reasoning tokens are part of the completion's 6.
    const responses = await agentUsage('openai.responses');
    expect(responses.messages).toEqual([
      { completion_tokens: 6, prompt_tokens: 12, reasoning_tokens: 4 },
      { completion_tokens: 6, prompt_tokens: 12, reasoning_tokens: 4 },
    ]);
    expect(responses.usage).toMatchObject({ calls: 2, prompt_tokens: 24, completion_tokens: 12, reasoning_tokens: 8, cache_read_tokens: 0, cache_write_tokens: 0, unpriced_models: [] });
    expect(responses.usage.cost).toBeCloseTo(24 * 1.25e-6 + 12 * 10e-6, 12);
    expect(responses.messageCost).toBeCloseTo(responses.usage.cost, 12);

    // Gemini's thoughts are counted apart from its candidates; the completion counts both.
    const gemini = await agentUsage('google');
    expect(gemini.messages).toEqual([
      { completion_tokens: 11, prompt_tokens: 12, reasoning_tokens: 5 },
      { completion_tokens: 11, prompt_tokens: 12, reasoning_tokens: 5 },
    ]);
    expect(gemini.usage).toMatchObject({ calls: 2, prompt_tokens: 24, completion_tokens: 22, reasoning_tokens: 10 });
  });

  it("shows a turn's reasoning collapsed in view and on the trajectory page, whole when asked", async () => {
    const file = path.join(dir, 'anthropic.json');
    const [simulation] = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8'))).simulations;
    const collapsed = await capture(['view', file, '--sim', simulation!.id]);
    expect(collapsed.text).toContain('reasoning (26 chars; --reasoning shows it): I need to create the task.');
    const whole = await capture(['view', file, '--sim', simulation!.id, '--reasoning']);
    expect(whole.text).toMatch(/^ +reasoning: I need to create the task\.$/m);
    const page = String(await trajectoryPage({ nonce: 'n', csrfToken: null, signedIn: false, canAct: false }, simulation!, null, { error: 'no data' }));
    expect(page).toContain('<details class="reasoning"><summary>reasoning</summary><pre>I need to create the task.</pre></details>');
  });

  it('asks Anthropic to cache the prompt by default (the second turn reads it), and not with --no-prompt-cache', async () => {
    const cacheReads = async (flags: string[]) => {
      const file = path.join(dir, `cache-${flags.length}.json`);
      const { code, text } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1', '--max-retries', '0',
        '--agent-llm', 'anthropic/claude-sonnet-4-5', '--user-llm', USER, '--save-to', file, ...flags]);
      expect(code, text).toBe(0);
      const [simulation] = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8'))).simulations;
      return simulation!.messages!.flatMap((m) => (m.role === 'assistant' && m.raw_data ? [(m.raw_data['usage'] as Record<string, number>)['cache_read_input_tokens']] : []));
    };
    const [, cachedRead] = await cacheReads([]);
    expect(cachedRead).toBeGreaterThan(0);
    const sentBefore = native.requests.length;
    expect(await cacheReads(['--no-prompt-cache'])).toEqual([0, 0]);
    expect(JSON.stringify(native.requests.slice(sentBefore).filter((r) => r.provider === 'anthropic').map((r) => r.body))).not.toContain('cache_control');
  });

  it('refuses an argument the agent model cannot take before anything runs, naming it', async () => {
    const { code, errors } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1',
      '--agent-llm', 'anthropic/claude-sonnet-4-5', '--agent-llm-args', '{"frequency_penalty": 0.5}', '--user-llm', USER]);
    expect(code).toBe(1);
    expect(errors).toContain('--agent-llm-args: frequency_penalty is not an argument anthropic models take');
  });

  it('refuses a thinking budget at or over max_tokens before anything runs, naming both (Anthropic would refuse every call)', async () => {
    const sentBefore = native.requests.length;
    const { code, errors } = await capture(['run', '--in-process', '--domain', 'mock', '--task-ids', 'create_task_1',
      '--agent-llm', 'anthropic/claude-sonnet-4-5', '--agent-llm-args', '{"thinking": {"type": "enabled", "budget_tokens": 64000}, "max_tokens": 64000}', '--user-llm', USER]);
    expect(code).toBe(1);
    expect(errors).toContain('--agent-llm-args: thinking.budget_tokens (64000) must be less than max_tokens (64000)');
    expect(native.requests.length).toBe(sentBefore);
  });
});
