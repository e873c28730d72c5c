// Probe checks of a newcomer's first touch, run by scripts/probe.ts: reasoning arguments the provider would refuse
// are refused at launch; an error raised while grading is recorded as such; evaluate-trajs grades trajectories
// with no recorded reward; the grep retriever matches Python's conditionals or says it cannot; intro's first
// command works as printed; local secrets files stay out of git.
import { execFile } from 'node:child_process';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../src/cli/checkout.mjs';
import { dataDir } from '../src/cli/data.ts';
import { createGrepIndex } from '../src/core/knowledge/grep.ts';
import { isToolError } from '../src/core/environment/errors.ts';
import { knowledgeDocuments } from '../test/support/knowledge.ts';
import type { ProbeContext } from './probe-hardening.ts';

const exec = promisify(execFile);
const bin = path.join(repoRoot, 'bin', 'tau2-edge');

/** A command's output and exit code (a non-zero exit is an answer, not a failure of the probe). */
const runBin = async (args: readonly string[]): Promise<{ code: number; out: string }> =>
  exec(bin, args, { cwd: repoRoot, timeout: 120_000 }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, out: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );

const reasoningArgs = async ({ send, check }: ProbeContext): Promise<void> => {
  const refused = await send('POST', '/v1/runs', {
    body: { domain: 'mock', task_ids: ['create_task_1'], llm_agent: 'anthropic/claude-sonnet-4-5', llm_args_agent: { thinking: { type: 'enabled', budget_tokens: 64000 }, max_tokens: 64000 } },
  });
  check(refused.status === 400 && refused.text.includes('thinking.budget_tokens (64000) must be less than max_tokens (64000)'), 'a thinking budget at or over max_tokens → 400 naming both', refused.text.slice(0, 200));
};

const gradingAndRegrading = async ({ send, check, run, waitDone }: ProbeContext): Promise<void> => {
  const failing = JSON.parse((await send('POST', '/v1/runs', { body: run({ task_ids: ['create_task_1_with_env_assertions'], max_retries: 0 }) })).text) as { run_id: string };
  await waitDone(failing.run_id);
  const failed = JSON.parse((await send('GET', `/v1/runs/${failing.run_id}/results`)).text) as { simulations: { info?: { error?: string; error_stage?: string } }[] };
  const info = failed.simulations[0]?.info;
  check(info?.error === 'Task task_2 not found' && info.error_stage === 'evaluation', "an env assertion that raises while grading is recorded as raised while grading", JSON.stringify(info ?? null));

  const scored = JSON.parse((await send('POST', '/v1/runs', { body: run() })).text) as { run_id: string };
  await waitDone(scored.run_id);
  const results = JSON.parse((await send('GET', `/v1/runs/${scored.run_id}/results`)).text) as { simulations: { reward_info: unknown }[] };
  for (const simulation of results.simulations) simulation.reward_info = null;
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-probe-'));
  try {
    const file = path.join(dir, 'unrecorded.json');
    await writeFile(file, JSON.stringify(results));
    const { code, out } = await runBin(['evaluate-trajs', file]);
    check(code === 0 && out.includes('no recorded reward') && !out.includes('undefined'), 'evaluate-trajs grades trajectories with no recorded reward, exit 0', out.slice(-300));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const grepConditionals = async ({ check }: ProbeContext): Promise<void> => {
  if (!(await access(path.join(dataDir(), 'domains', 'banking_knowledge')).then(() => true, () => false))) return;
  const grep = createGrepIndex(await knowledgeDocuments());
  check(grep.search('(a)?(?(1)b|c)').length > 0, "grep: a conditional group (a)?(?(1)b|c) matches as Python's re does");
  const unsupported = (() => {
    try {
      grep.search('(?:(a)|b)*(?(1)c|d)');
      return null;
    } catch (error) {
      return error;
    }
  })();
  check(isToolError(unsupported), 'grep: a conditional it cannot evaluate is a tool error, not "No matches found"', String(unsupported));
};

const checkout = async ({ check }: ProbeContext): Promise<void> => {
  const ignored = await exec('git', ['check-ignore', '--no-index', '--quiet', '.env'], { cwd: repoRoot }).then(() => true, () => false);
  check(ignored, '.env is ignored by git');
  check(await access(path.join(repoRoot, '.dev.vars.example')).then(() => true, () => false), '.dev.vars.example exists');
  const intro = await runBin(['intro']);
  const first = intro.out.split('\n').find((line) => line.startsWith('bin/tau2-edge check-data'));
  const ran = first === undefined ? null : await runBin(first.split(' ').slice(1));
  check(ran?.code === 0, "intro's quick start: its check-data command runs as printed", first ?? 'no check-data line');
};

export const probeFirstTouch = async (ctx: ProbeContext): Promise<void> => {
  await reasoningArgs(ctx);
  await gradingAndRegrading(ctx);
  await grepConditionals(ctx);
  await checkout(ctx);
};
