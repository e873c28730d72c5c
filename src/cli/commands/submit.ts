// `tau2-edge submit prepare|validate|verify-trajs`: leaderboard submissions built and checked as the
// reference's `tau2 submit` does (reference: src/tau2/cli.py, src/tau2/scripts/leaderboard/).
import { Command } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { terminalAsker } from '../ask.ts';
import { prepareSubmission } from '../submit/prepare-submission.ts';
import { validateSubmission } from '../submit/validate-submission.ts';
import { verifyTrajectories } from '../submit/verify-trajectories.ts';

/** Today in the local time zone, as Python's date.today().isoformat(). */
const today = (): string => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

const VOICE_REFUSAL = 'voice submissions are not supported: tau2-edge runs text mode only';

export const submitCommand = (ctx: CliContext): Command => {
  const prepare = defineCommand(
    ctx,
    'prepare',
    'prepare a submission for the leaderboard: verify the trajectory files, compute each domain\'s pass^k and cost, ask for the submission details, write <dir>/<model>_<org>_<date>/',
    ['submit prepare data/simulations/airline.json data/simulations/retail.json -o submissions/', "submit prepare 'runs/*.json' -o submissions/ --no-verify"],
    (command) =>
      command
        .argument('<input-paths...>', 'trajectory files, folders or glob patterns')
        .requiredOption('-o, --output <dir>', 'output directory to save the submission and trajectories')
        .option('--no-verify', 'skip trajectory verification step')
        .option('--voice', `force voice submission mode (${VOICE_REFUSAL})`),
    async (paths: string[], values: { output: string; verify: boolean; voice?: boolean }) => {
      if (values.voice === true) throw new Error(VOICE_REFUSAL);
      const asker = terminalAsker(ctx.out);
      try {
        return await prepareSubmission(paths, { outputDir: values.output, verify: values.verify, today: today() }, asker, ctx.out);
      } finally {
        asker.close();
      }
    },
  );
  const validate = defineCommand(
    ctx,
    'validate',
    'validate an existing submission directory (as the reference, exit 0 with the refusal printed, unless a trajectory check fails: exit 1)',
    ['submit validate submissions/gpt-4-1_openai_2026-11-25'],
    (command) => command.argument('<submission-dir>', 'path to the submission directory to validate'),
    (dir: string) => validateSubmission(dir, ctx.out),
  );
  const verify = defineCommand(
    ctx,
    'verify-trajs',
    "verify trajectory files: every task of the domain's base split, unchanged, run num_trials times (exit 1 if one fails)",
    ['submit verify-trajs data/simulations/airline.json', "submit verify-trajs 'runs/*.json'"],
    (command) => command.argument('<paths...>', 'trajectory files, folders or glob patterns'),
    (paths: string[]) => verifyTrajectories(paths, ctx.out),
  );
  return new Command('submit')
    .description('submission management for the leaderboard: prepare, validate, verify-trajs')
    .addCommand(prepare)
    .addCommand(validate)
    .addCommand(verify);
};
