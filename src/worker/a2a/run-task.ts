// A run as an A2A task: its id is the run's, its state follows the run's status, its status message counts the
// episodes done, and once the run completes its artifacts are the summary metrics and the reference results file.
import type { Run, RunStatus } from '../../api/index.ts';
import type { Task, TaskState } from '../../api/a2a.ts';
import type { RunRow } from '../db/runs.ts';
import { runResultsStream, runView } from '../runs/read.ts';

const STATES: Readonly<Record<RunStatus, TaskState>> = {
  running: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  cancelled: 'TASK_STATE_CANCELED',
  failed: 'TASK_STATE_FAILED',
};

const JSON_MEDIA_TYPE = 'application/json';

const statusText = (run: Run): string =>
  run.status === 'failed' && run.error !== null
    ? `The run failed: ${run.error}`
    : `${run.counts.done} of ${run.counts.total} episodes done (${run.counts.passed} passed, ${run.counts.infra_error} infrastructure errors)`;

/** The summary a client reads first: the run's metrics, counts and error bars, plain JSON. */
const summary = (run: Run) => ({
  run_id: run.id,
  status: run.status,
  domain: run.config.domain,
  counts: run.counts,
  metrics: run.metrics,
  error_bars: run.error_bars,
});

const artifacts = async (env: Env, row: RunRow, run: Run, origin: string) => [
  {
    artifactId: 'metrics',
    name: 'metrics',
    description: 'The run’s summary metrics (avg_reward, pass^k …), episode counts and error bars',
    parts: [{ data: summary(run), mediaType: JSON_MEDIA_TYPE }],
  },
  {
    artifactId: 'results',
    name: 'results.json',
    description: 'The run’s results file in the reference’s format: inline without the simulations’ messages (a light read), whole at the url part',
    parts: [
      { text: await new Response(await runResultsStream(env, row, false)).text(), mediaType: JSON_MEDIA_TYPE, filename: 'results.json' },
      { url: `${origin}/v1/runs/${run.id}/results`, mediaType: JSON_MEDIA_TYPE, filename: 'results.json' },
    ],
  },
];

/** The run as an A2A task (artifacts only once it has completed). */
export const runTask = async (env: Env, row: RunRow, origin: string): Promise<Task> => {
  const run = await runView(env, row);
  return {
    id: run.id,
    contextId: run.id,
    status: {
      state: STATES[run.status],
      message: { messageId: `${run.id}/${run.updated_at}/${run.counts.done}`, role: 'ROLE_AGENT', taskId: run.id, contextId: run.id, parts: [{ text: statusText(run) }] },
      timestamp: run.updated_at,
    },
    ...(run.status === 'completed' ? { artifacts: await artifacts(env, row, run, origin) } : {}),
    metadata: { run_id: run.id, counts: run.counts },
  };
};
