// The OpenAPI document as a client sees it, served by a local worker (workerd, D1, Durable Objects): it passes
// Redocly's recommended rules, and a client generated from it (swagger-typescript-api) compiles with the project's
// TypeScript and drives a run against the scripted provider. The client is generated at test time from the
// document served now, so every endpoint added later is linted and generated too.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { NormalizedProblem } from '@redocly/openapi-core';
import { generateApi } from 'swagger-typescript-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { stopAll } from '../support/viewer-runs.ts';

const OPERATOR_KEY = 'contract-test-operator-key';
let fake: FakeOpenAI;
let worker: LocalWorker;
let dir: string;
let document: Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-contract-'));
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  worker = await startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: OPERATOR_KEY } });
  document = (await (await fetch(`${worker.url}/v1/openapi.json`)).json()) as Record<string, unknown>;
}, 120_000);
afterAll(() => stopAll({ worker, fake, dir }));

const pointerOf = (problem: NormalizedProblem): string => problem.location[0]?.pointer ?? '';

/**
 * The one finding the document keeps, explained in docs/http-api.md: an operation that takes no key, no parameter
 * and no body (the health checks, this document, OpenEnv's metadata and schemas) has no 4XX answer to document.
 */
const hasNoInput = (problem: NormalizedProblem): boolean => {
  const match = /^#\/paths\/([^/]+)\/(\w+)\/responses$/.exec(pointerOf(problem));
  if (problem.ruleId !== 'operation-4xx-response' || match === null) return false;
  const paths = document.paths as Record<string, Record<string, { security?: unknown[]; parameters?: unknown[]; requestBody?: unknown }>>;
  const operation = paths[match[1]!.replaceAll('~1', '/').replaceAll('~0', '~')]?.[match[2]!];
  return operation !== undefined && operation.security?.length === 0 && (operation.parameters ?? []).length === 0 && operation.requestBody === undefined;
};

const run = promisify(execFile);
/** The project's TypeScript, strict, over `files` in `folder`: its diagnostics (empty when it compiles). */
const compile = async (folder: string, files: readonly string[]): Promise<string> => {
  const options = { strict: true, noUncheckedIndexedAccess: true, target: 'ES2024', lib: ['ES2024', 'DOM'], module: 'preserve', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, types: [] };
  await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }));
  const result = await run(path.join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', path.join(folder, 'tsconfig.json')]).catch((failure: { stdout: string }) => failure);
  return result.stdout;
};

describe('the OpenAPI contract, as served', () => {
  it("passes Redocly's recommended rules: no error, no warning but the explained one", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: `${worker.url}/v1/openapi.json`, config });
    const found = problems.filter((p) => !hasNoInput(p)).map((p) => `${p.severity} ${p.ruleId} ${pointerOf(p)}: ${p.message}`);
    expect(found).toEqual([]);
    expect(problems.filter(hasNoInput).length).toBeLessThanOrEqual(6);
  });

  it('a client generated from it compiles with the project’s TypeScript, refuses a wrong call, and drives a run', async () => {
    const out = path.join(dir, 'client');
    await generateApi({ spec: document as never, output: out, fileName: 'api.ts', silent: true, moduleNameFirstTag: true });
    // The consumer is typed by the generated client alone: method names from operationIds, groups from tags.
    await writeFile(
      path.join(out, 'consumer.ts'),
      `import { Api } from './api.ts';
export const evaluate = async (key: string): Promise<{ status: string; rewards: number[] }> => {
  const api = new Api<string>({ securityWorker: (token) => (token ? { headers: { Authorization: \`Bearer \${token}\` } } : {}) });
  api.setSecurityData(key);
  const { data: launched } = await api.runs.createRun(
    { domain: 'mock', llm_agent: 'fake-agent', llm_user: 'fake-user', task_ids: ['create_task_1', 'update_task_1'], max_concurrency: 1 },
    { secure: true },
  );
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const { data: run } = await api.runs.getRun(launched.run_id, { secure: true });
    if (run.status === 'running') continue;
    const { data: results } = await api.runs.getRunResults(launched.run_id, { messages: 'false' }, { secure: true });
    return { status: run.status, rewards: results.simulations.map((s) => s.reward_info?.reward ?? -1) };
  }
  throw new Error('run did not finish');
};
`,
    );
    await writeFile(path.join(out, 'wrong.ts'), `import { Api } from './api.ts';\nvoid new Api().runs.createRun({ domain: 7 });\nvoid new Api().runs.getRunn('x');\n`);
    // One compilation of both: the generated client and the consumer have no diagnostic, wrong.ts has its two.
    const diagnostics = await compile(out, ['consumer.ts', 'wrong.ts']);
    const firstLines = diagnostics.split('\n').filter((line) => line !== '' && !/^\s/.test(line));
    expect(firstLines.filter((line) => !/(^|\/)wrong\.ts\(\d+,\d+\): error /.test(line))).toEqual([]);
    expect(diagnostics).toMatch(/wrong\.ts\(2,\d+\): error TS2322/);
    expect(diagnostics).toMatch(/wrong\.ts\(3,\d+\): error TS2551: Property 'getRunn' does not exist/);

    const consumer = (await import(path.join(out, 'consumer.ts'))) as { evaluate: (key: string) => Promise<{ status: string; rewards: number[] }> };
    const outcome = await consumer.evaluate(OPERATOR_KEY);
    expect(outcome.status).toBe('completed');
    expect(outcome.rewards).toHaveLength(2);
    expect(outcome.rewards.every((r) => r === 0 || r === 1)).toBe(true);
  }, 180_000);
});
