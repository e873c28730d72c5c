// `tau2-edge runs --api URL` lists a serving worker's runs; `tau2-edge rerun-infra-errors RUN --api URL` runs a
// run's infrastructure-error simulations again. TAU2_EDGE_API_KEY is sent as the Bearer token.
import { clientFromFlags as client, withApiFlag as withApi } from '../api-flag.ts';
import type { ApiFlags } from '../api-flag.ts';
import { defineCommand, int } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';


export const runsCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'runs',
    "list a serving worker's runs, newest first",
    ['runs --api http://127.0.0.1:8787', 'runs --api https://tau2.example.com --limit 10'],
    (command) => withApi(command.option('--limit <n>', 'at most this many runs (1-200)', int, 50)),
    async (values: ApiFlags & { limit: number }) => {
      for (const run of await client(values).listRuns(values.limit)) {
        const c = run.counts;
        ctx.out([run.id, run.status, run.config.domain, `${c.done}/${c.total} done`, `${c.infra_error} infra errors`, run.created_at].join('\t'));
      }
      return 0;
    },
  );

export const rerunInfraErrorsCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'rerun-infra-errors',
    "run a run's infrastructure-error simulations again",
    ['rerun-infra-errors 0f3c… --api http://127.0.0.1:8787'],
    (command) => withApi(command.argument('<run>', 'the run id')),
    async (runId: string, values: ApiFlags) => {
      const rerun = await client(values).rerunInfraErrors(runId);
      ctx.out(`run ${rerun.run_id}: ${rerun.rerun} simulation${rerun.rerun === 1 ? '' : 's'} rerun, status ${rerun.status}`);
      return 0;
    },
  );
