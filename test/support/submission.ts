// Leaderboard trajectory files for `tau2-edge submit` tests: every `base` task of a domain run num_trials
// times, each simulation a copy of the mock fixture's conversation with its own reward and agent cost, so
// the figures (pass^k, cost) are known without running anything. The same files were given to the
// reference's prepare/validate to record the expected outputs (test/fixtures/submission-expected.json).
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileDataSource } from '../../src/cli/data.ts';
import { dumpsPy, parsePyJson, pyFloat } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { regradeFixtureText } from './regrade.ts';

type Json = Record<string, PyValue>;

const mockFixture = { domain: 'mock', fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url), policy: 'domains/mock/policy.md' };

/** A reward pattern spread over tasks and trials, so pass^1..4 all differ from 0 and 1. */
const succeeds = (task: number, trial: number): boolean => (task * 7 + trial * 3) % 5 !== 0;

/** A results file of `domain` with every base task run `trials` times, as text in Python JSON. */
export const submissionResultsText = async (domain: string, trials: number, llm = 'gpt-4.1-2025-04-14'): Promise<string> => {
  const mock = parsePyJson(await regradeFixtureText(mockFixture)) as Json;
  const data = fileDataSource();
  const splits = parsePyJson(await data.readText(`domains/${domain}/split_tasks.json`)) as Record<string, string[]>;
  const base = new Set(splits['base']);
  const tasks = (parsePyJson(await data.readText(`domains/${domain}/tasks.json`)) as Json[]).filter((t) => base.has(t['id'] as string));
  const info = mock['info'] as Json;
  const template = (mock['simulations'] as Json[])[0]!;
  const simulations = tasks.flatMap((task, i) =>
    Array.from({ length: trials }, (_, trial) => ({
      ...template,
      id: `${domain}-submission-${i}-${trial}`,
      task_id: task['id'] as string,
      trial,
      agent_cost: pyFloat(0.0013 * ((i % 7) + 1) + 0.0007 * trial),
      reward_info: { ...(template['reward_info'] as Json), reward: pyFloat(succeeds(i, trial) ? 1 : 0) },
      policy: null,
    })),
  );
  const results = {
    ...mock,
    info: {
      ...info,
      num_trials: trials,
      user_info: { ...(info['user_info'] as Json), llm },
      agent_info: { ...(info['agent_info'] as Json), llm },
      environment_info: { ...(info['environment_info'] as Json), domain_name: domain, policy: await data.readText(`domains/${domain}/policy.md`) },
    },
    tasks,
    simulations,
    simulation_index: null,
  };
  return dumpsPy(results as unknown as PyValue, { indent: 2 });
};

/** A change that makes a trajectory file fail one of the leaderboard's checks. */
export type Tampering = 'missing_tasks' | 'extra_task' | 'changed_task' | 'missing_trial';

export const tamper = (text: string, how: Tampering): string => {
  const results = parsePyJson(text) as { tasks: Json[]; simulations: Json[] };
  const [first, second, third] = results.tasks as [Json, Json, Json];
  if (how === 'missing_tasks') {
    const gone = new Set([first['id'], second['id']]);
    results.tasks = results.tasks.filter((t) => !gone.has(t['id']!));
    results.simulations = results.simulations.filter((s) => !gone.has(s['task_id']!));
  }
  if (how === 'extra_task') {
    results.tasks.push({ ...first, id: 'extra_task' });
    const sims = results.simulations.filter((s) => s['task_id'] === first['id']);
    results.simulations.push(...sims.map((s) => ({ ...s, id: `${s['id'] as string}-extra`, task_id: 'extra_task' })));
  }
  if (how === 'changed_task') third['ticket'] = 'a ticket the domain does not have';
  if (how === 'missing_trial') results.simulations.pop();
  return dumpsPy(results as unknown as PyValue, { indent: 2 });
};

/** The reference's outputs for these files (see test/fixtures/README.md). */
export const submissionExpected = JSON.parse(
  await readFile(new URL('../fixtures/submission-expected.json', import.meta.url), 'utf8'),
) as {
  verify: Record<string, string>;
  validate: Record<string, string>;
  prepare: { answers: string; output: string; submission_json: string } & Record<string, string>;
};

/** The day the reference prepared its submission; names in the validate fixtures carry it. */
const PREPARED_ON = '2026-11-25';

/**
 * A folder laid out as the fixtures were computed in: files/ with the trajectory files, and v/<case>/ with
 * the submission folders `submit validate` is given.
 */
export const submissionWorkspace = async (): Promise<string> => {
  const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-submit-'));
  const files = path.join(root, 'files');
  await mkdir(files);
  const airline = await submissionResultsText('airline', 4);
  const retail = await submissionResultsText('retail', 2);
  const texts: Record<string, string> = {
    'airline.json': airline,
    'retail.json': retail,
    'retail-other.json': await submissionResultsText('retail', 2, 'gpt-4o'),
    'broken.json': '{"info": ',
  };
  for (const how of ['missing_tasks', 'extra_task', 'changed_task', 'missing_trial'] as const) texts[`airline-${how}.json`] = tamper(airline, how);
  for (const [name, text] of Object.entries(texts)) await writeFile(path.join(files, name), text);

  const submission = submissionExpected.prepare.submission_json.replaceAll('{{today}}', PREPARED_ON);
  const edited = parsePyJson(submission) as { model_name: string; methodology: Json; results: { airline: Json; retail?: Json } };
  edited.model_name = 'gpt-4.1-2025-04-14';
  edited.methodology['user_simulator'] = 'gpt-4o';
  edited.results.airline['pass_1'] = pyFloat(81);
  delete edited.results.airline['cost'];
  delete edited.results.retail;
  const folders: Record<string, Record<string, string>> = {
    'no-submission': { 'trajectories/airline.json': airline },
    'no-trajectories': { 'submission.json': submission },
    duplicate: { 'submission.json': submission, 'trajectories/a.json': retail, 'trajectories/b.json': retail },
    participants: { 'submission.json': submission, 'trajectories/airline.json': airline, 'trajectories/retail-other.json': texts['retail-other.json']! },
    metrics: { 'submission.json': dumpsPy(edited as unknown as PyValue, { indent: 2 }), 'trajectories/airline.json': airline, 'trajectories/retail.json': retail },
    failing: { 'submission.json': submission, 'trajectories/airline.json': texts['airline-missing_trial.json']! },
    ok: { 'submission.json': submission, 'trajectories/airline.json': airline, 'trajectories/retail.json': retail },
  };
  for (const [folder, contents] of Object.entries(folders)) {
    for (const [file, text] of Object.entries(contents)) {
      const target = path.join(root, 'v', folder, file);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
  return root;
};

/** A fixture's text for this workspace; Python set reprs sorted, since their order follows CPython's hash seed. */
export const expectedText = (text: string, root: string, today = PREPARED_ON): string =>
  sortSets(text.replaceAll('{{root}}', root).replaceAll('{{today}}', today));

export const sortSets = (text: string): string =>
  text.replace(/: \{('[^}]*')\}/g, (_, items: string) => `: {${items.split(', ').sort().join(', ')}}`);
