// `tau2-edge run --domain banking_knowledge`: the retrieval configuration flags, and a scripted no_knowledge run
// in-process over the fake provider (the agent replays gold actions on some tasks, does nothing on another),
// recorded and graded as the reference records and grades it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAgent, isUserSimulator, startFakeOpenAI, text, toolCall } from '../support/fake-openai.ts';
import type { CapturedRequest, FakeOpenAI, FakeReply } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { parseRunFlags } from '../../src/cli/run/flags.ts';
import { loadDomain } from '../../src/cli/data.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { Task } from '../../src/core/schemas/task.ts';
import { Environment } from '../../src/core/environment/environment.ts';
import { resolveVariant } from '../../domains/banking_knowledge/retrieval.ts';
import { RETRIEVAL_CONFIG_NAMES } from '../../src/core/knowledge/configs.ts';
import { isRerankRequest, rerankReply } from '../support/fake-reranker.ts';
import { recordedUsage } from '../../src/core/metrics/role-usage.ts';

const { data } = await loadDomain('banking_knowledge');
const task = (id: string): Task => data.tasks.find((t) => t.id === id)!;
/** Tasks whose gold actions are all the agent's: replayed, each scores 1.0; task_076's agent does nothing. */
const REPLAYED = ['task_004', 'task_005', 'task_075'];
const IDLE = 'task_076';

type Wire = { role: string; content: string | null };
const messages = (request: CapturedRequest): Wire[] => (request.body as { messages: Wire[] }).messages;

/** The prompt indents the instructions line by line; a task's longest line identifies it. */
const longestLine = (text: string): string => text.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '');

/** The user names its task (found by its instructions in the simulator's prompt), then stops once answered. */
const user = (request: CapturedRequest): FakeReply => {
  const [system, ...rest] = messages(request);
  const id = [...REPLAYED, IDLE].find((t) => system!.content!.includes(longestLine(task(t).user_scenario.instructions as string)))!;
  return rest.some((m) => m.role === 'assistant') ? text('Thanks. ###STOP###') : text(`Hello, this is ${id}.`);
};

/** Searches the agent makes before the gold actions (set by a test of a retrieval configuration). */
let searches: { name: string; arguments: Record<string, unknown> }[] = [];

/** The agent makes the searches, then plays the named task's gold actions one per turn (none for the idle task), then answers. */
const agent = (request: CapturedRequest): FakeReply => {
  const history = messages(request);
  const id = /this is (task_\d+)/.exec(history.find((m) => m.role === 'user')!.content!)![1]!;
  const done = history.filter((m) => m.role === 'tool').length;
  const search = searches[done];
  if (search) return toolCall(search.name, JSON.stringify(search.arguments), `search_${done}`);
  const gold = id === IDLE ? [] : (task(id).evaluation_criteria?.actions ?? []);
  const next = gold[done - searches.length];
  return next ? toolCall(next.name, JSON.stringify(next.arguments), `call_${done}`) : text('All done.');
};

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler((request) =>
    isUserSimulator(request) ? user(request) : isAgent(request) ? agent(request) : isRerankRequest(request) ? rerankReply(request) : text('ok'),
  );
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-banking-'));
  // Embeddings go to the fake (OpenAI's through --llm-base-url, OpenRouter's here) and are cached in the test's folder.
  process.env.OPENROUTER_BASE_URL = fake.baseURL;
  process.env.TAU2_EMBEDDINGS_CACHE_DIR = path.join(dir, 'embeddings');
});
afterAll(async () => {
  delete process.env.OPENROUTER_BASE_URL;
  delete process.env.TAU2_EMBEDDINGS_CACHE_DIR;
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('run flags for banking_knowledge', () => {
  it('the default configuration is alltools; every configuration is accepted', () => {
    expect(parseRunFlags(['--domain', 'banking_knowledge']).config.retrieval_config).toBeNull();
    for (const name of RETRIEVAL_CONFIG_NAMES) {
      expect(parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', name]).config.retrieval_config).toBe(name);
    }
  });

  it('takes the reference names as choices, and its kwargs as JSON', () => {
    const { config } = parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'full_kb', '--retrieval-config-kwargs', '{"top_k": 5}']);
    expect(config).toMatchObject({ retrieval_config: 'full_kb', retrieval_config_kwargs: { top_k: 5 } });
    expect(() => parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'bm2'])).toThrow(/unknown retrieval config 'bm2'\. Available: alltools, alltools-qwen, bm25, /);
    expect(() => parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'no_knowledge', '--retrieval-config-kwargs', '{'])).toThrow(/^--retrieval-config-kwargs is not valid JSON/);
  });

  it('other domains take no retrieval configuration', () => {
    expect(() => parseRunFlags(['--domain', 'mock', '--retrieval-config', 'no_knowledge'])).toThrow('--retrieval-config: The mock domain takes no retrieval configuration');
    expect(() => parseRunFlags(['--domain', 'mock', '--retrieval-config-kwargs', '{}'])).toThrow('--retrieval-config-kwargs: The mock domain');
    expect(parseRunFlags(['--domain', 'mock']).config).toMatchObject({ retrieval_config: null, retrieval_config_kwargs: null });
  });
});

describe('tau2-edge run --in-process --domain banking_knowledge --retrieval-config no_knowledge', () => {
  it('completes and grades every simulation; the results record the configuration and its policy', async () => {
    const file = path.join(dir, 'banking.json');
    const { code, text: out, errors } = await capture(['run', '--in-process', '--domain', 'banking_knowledge', '--retrieval-config', 'no_knowledge',
      '--task-ids', ...REPLAYED, IDLE, '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL,
      '--max-concurrency', '2', '--save-to', file]);
    expect(code, `${out}${errors}`).toBe(0);
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    const rewards = Object.fromEntries(results.simulations.map((s) => [s.task_id, s.reward_info?.reward.value]));
    expect(rewards).toEqual({ task_004: 1, task_005: 1, task_075: 1, [IDLE]: 0 });
    expect(results.simulations.every((s) => s.termination_reason === 'user_stop')).toBe(true);
    expect(results.info.retrieval_config).toBe('no_knowledge');
    expect(results.info.retrieval_config_kwargs).toBeNull();
    expect(results.info.environment_info.policy).toBe(data.policies!.no_knowledge);
    expect(results.simulations.every((s) => s.policy === data.policies!.no_knowledge)).toBe(true);
    const agentTools = (fake.requests.find((r) => isAgent(r))!.body as { tools: { function: { name: string } }[] }).tools;
    expect(agentTools.map((t) => t.function.name)).toContain('unlock_discoverable_agent_tool');
    expect(agentTools.map((t) => t.function.name)).not.toContain('open_bank_account_4821');

    // Re-grading the saved file gives every simulation the same reward components.
    const regrade = await capture(['evaluate-trajs', file, '-o', path.join(dir, 'regraded')]);
    expect(regrade.code, regrade.text + regrade.errors).toBe(0);
    expect(regrade.text).toMatch(/agree 4 \/ 4/);
  });

  it('bm25_grep: the agent searches with KB_search and grep, then acts; the run is graded and records the configuration', async () => {
    const file = path.join(dir, 'banking-bm25-grep.json');
    searches = [
      { name: 'KB_search', arguments: { query: 'open a checking account' } },
      { name: 'grep', arguments: { pattern: 'open_bank_account_4821' } },
    ];
    try {
      const { code, text: out, errors } = await capture(['run', '--in-process', '--domain', 'banking_knowledge', '--retrieval-config', 'bm25_grep',
        '--task-ids', 'task_075', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
      expect(code, `${out}${errors}`).toBe(0);
    } finally {
      searches = [];
    }
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.info.retrieval_config).toBe('bm25_grep');
    expect(results.info.environment_info.policy).toBe(data.policies!.bm25_grep);
    const [sim] = results.simulations;
    expect(sim!.reward_info?.reward.value).toBe(1);
    const toolTexts = (sim!.messages ?? []).filter((m) => m.role === 'tool').map((m) => (m as { content: string | null }).content ?? '');
    expect(toolTexts[0]).toMatch(/^1\. .*\n   ID: doc_[\s\S]*\n\n\[Timing: retrieval=\d+ms(, reranking=\d+ms)?, total=\d+ms\]$/);
    expect(toolTexts[1]).toMatch(/^1\. .*\n   ID: doc_/);
    expect(toolTexts[1]).toContain('open_bank_account_4821');
  });

  /** One call of each retrieval tool a configuration gives, with what its answer must show. */
  const SEARCHES: Record<string, { arguments: Record<string, unknown>; shows: RegExp }[]> = {
    KB_search: [{ arguments: { query: 'open a checking account' }, shows: /^1\. .*\n   ID: doc_[\s\S]*\[Timing: retrieval=\d+ms/ }],
    KB_search_bm25: [{ arguments: { query: 'open a checking account', k: 3 }, shows: /^1\. [\s\S]*\n3\. [\s\S]*\[Timing: / }],
    KB_search_dense: [{ arguments: { query: 'open a checking account' }, shows: /^1\. .*\n   ID: doc_[\s\S]*\[Timing: retrieval=\d+ms/ }],
    grep: [{ arguments: { pattern: 'open_bank_account_4821' }, shows: /open_bank_account_4821/ }],
    shell: [{ arguments: { command: 'grep -l open_bank_account_4821 *.md | head -3' }, shows: /^doc_.*\.md\n/ }],
  };
  const WRITE = { arguments: { command: 'echo checked > notes.md && cat notes.md' }, shows: /^checked\n$/ };

  for (const name of RETRIEVAL_CONFIG_NAMES) {
    it(`${name}: a scripted run searches with every retrieval tool the configuration gives, then acts; graded 1.0`, async () => {
      const calls = resolveVariant(name).tools.flatMap((tool) => SEARCHES[tool]!.map((s) => ({ name: tool, ...s })));
      if (name === 'terminal_use_write') calls.push({ name: 'shell', ...WRITE });
      searches = calls;
      const embedded = fake.embeddingRequests.length;
      const rated = fake.requests.filter(isRerankRequest).length;
      const file = path.join(dir, `banking-${name}.json`);
      try {
        const { code, text: out, errors } = await capture(['run', '--in-process', '--domain', 'banking_knowledge', '--retrieval-config', name,
          '--task-ids', 'task_075', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
        expect(code, `${out}${errors}`).toBe(0);
      } finally {
        searches = [];
      }
      const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
      expect(results.info.retrieval_config).toBe(name);
      const [sim] = results.simulations;
      expect(sim!.reward_info?.reward.value).toBe(1);
      const tools = (sim!.messages ?? []).filter((m) => m.role === 'tool') as { content: string | null; error: boolean }[];
      calls.forEach((call, i) => {
        expect(tools[i]!.error, tools[i]!.content ?? '').toBe(false);
        expect(tools[i]!.content).toMatch(call.shows);
      });
      // Dense configurations embed their queries (and, on the first build, the documents) on the fake endpoint.
      const dense = /embeddings|alltools/.test(name);
      expect(fake.embeddingRequests.length > embedded).toBe(dense);
      // Reranking configurations have the fake rater rate what the search found.
      expect(fake.requests.filter(isRerankRequest).length > rated).toBe(name.includes('reranker'));
    });
  }

  it('openai_embeddings_reranker: every embeddings and reranker call is the retrieval role\'s, priced, in the simulation and the summary', async () => {
    searches = [{ name: 'KB_search', arguments: { query: 'open a checking account' } }];
    const embedded = fake.embeddingRequests.length;
    const rated = fake.requests.filter(isRerankRequest).length;
    const file = path.join(dir, 'banking-retrieval-usage.json');
    let out: string;
    try {
      const run = await capture(['run', '--in-process', '--domain', 'banking_knowledge', '--retrieval-config', 'openai_embeddings_reranker',
        '--task-ids', 'task_075', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', file]);
      expect(run.code, `${run.text}${run.errors}`).toBe(0);
      out = run.text;
    } finally {
      searches = [];
    }
    const embeddings = fake.embeddingRequests.length - embedded;
    const ratings = fake.requests.filter(isRerankRequest).length - rated;
    expect(embeddings).toBeGreaterThan(0);
    expect(ratings).toBeGreaterThan(0);
    const [sim] = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8'))).simulations;
    const retrieval = recordedUsage(sim!)!.retrieval;
    // The fake embeds at 1 token a call (text-embedding-3-large: $0.13 per million); the rater answers in 10 + 5 tokens (gpt-5.2: $1.75 / $14 per million).
    expect(retrieval).toMatchObject({ calls: embeddings + ratings, prompt_tokens: embeddings + 10 * ratings, completion_tokens: 5 * ratings, unpriced_models: [] });
    expect(retrieval.cost).toBeCloseTo(embeddings * 0.13e-6 + ratings * (10 * 1.75e-6 + 5 * 14e-6), 12);
    expect(out).toMatch(new RegExp(`^Retrieval +${embeddings + ratings} calls, ${embeddings + 10 * ratings} prompt \\+ ${5 * ratings} completion tokens, \\$\\d+\\.\\d{4}$`, 'm'));
    // The fake agent and user models have no price: named, never $0.
    expect(out).toMatch(/^Agent +\d+ calls, .*, unpriced \(fake-agent\)$/m);
  });

  it('retrieval_config_kwargs outside the reference settings are refused before anything starts', () => {
    expect(() => parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'bm25', '--retrieval-config-kwargs', '{"bogus": 1}'])).toThrow(/^--retrieval-config-kwargs: [\s\S]*bogus/);
    expect(() => parseRunFlags(['--domain', 'banking_knowledge', '--retrieval-config', 'bm25', '--retrieval-config-kwargs', '{"top_k": "ten"}'])).toThrow(/^--retrieval-config-kwargs: [\s\S]*top_k/);
  });

  it('llm_agent_gt runs too (its prompt adds the gold steps); solo mode is refused, as in the reference', async () => {
    const file = path.join(dir, 'banking-gt.json');
    const { code, text: out, errors } = await capture(['run', '--in-process', '--domain', 'banking_knowledge', '--retrieval-config', 'golden_retrieval',
      '--agent', 'llm_agent_gt', '--task-ids', 'task_075', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL,
      '--save-to', file]);
    expect(code, `${out}${errors}`).toBe(0);
    const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
    expect(results.simulations.map((s) => s.reward_info?.reward.value)).toEqual([1]);
    expect(results.info.environment_info.policy).toBe("(Policy is task-specific - see 'policy' field in each simulation)");
    expect(results.simulations[0]!.policy).toContain('## ');
    const gtPrompt = (fake.requests.findLast((r) => isAgent(r))!.body as { messages: Wire[] }).messages[0]!.content!;
    expect(gtPrompt).toContain('open_bank_account_4821');

    const { domain, data: loadedData } = await loadDomain('banking_knowledge');
    expect(() => new Environment(domain, loadedData, { solo: true, now: () => '' })).toThrow('domain does not support solo mode');
  });
});
