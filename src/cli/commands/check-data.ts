// `tau2-edge check-data --domain D`: the oracle plays every task; one line per failing task, then a summary.
import { defineCommand, parseOrExplain } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { randomUUID } from 'node:crypto';
import { checkTask } from '../../core/runner/check-data.ts';
import type { TaskCheck } from '../../core/runner/check-data.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { selectTasks } from '../../core/tasks.ts';
import { AgentKindSchema } from '../../core/schemas/episode.ts';
import { loadDomain } from '../data.ts';

interface CheckDataFlags {
  readonly domain: string;
  readonly taskSplitName?: string;
  readonly agent: string;
}

export const checkDataCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'check-data',
    'play every task with the oracle; every task must score 1.0',
    ['check-data --domain airline', 'check-data --domain telecom --agent llm_agent_solo --task-split-name small'],
    (command) =>
      command
        .requiredOption('-d, --domain <domain>', 'the domain')
        .option('--task-split-name <split>', 'only the tasks of this split')
        .option('--agent <agent>', 'llm_agent, llm_agent_gt or llm_agent_solo', 'llm_agent'),
    (values: CheckDataFlags) => checkData(values, ctx.out),
  );

const checkData = async (values: CheckDataFlags, out: (text: string) => void): Promise<number> => {
  const agent = parseOrExplain(AgentKindSchema, values.agent);
  const started = Date.now();
  const { domain, data, guidelines } = await loadDomain(values.domain);
  const tasks = selectTasks(values.domain, data.tasks, data.splits, { split: values.taskSplitName ?? null });
  const checks: TaskCheck[] = [];
  for (const task of tasks) {
    const check = await checkTask(task, {
      domain,
      data,
      guidelines,
      clock: systemClock,
      newId: randomUUID,
      knownIssues: domain.knownIssues ?? {},
      agent,
    });
    checks.push(check);
    if (!check.ok) out(`FAIL ${check.taskId}: ${check.problems.join('; ')}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  const known = checks.filter((c) => c.ok && c.knownIssue !== null);
  for (const c of known) out(`KNOWN ${c.taskId}: reference task cannot score 1.0 — ${c.knownIssue}`);
  const goldFailing = checks.filter((c) => c.ok && c.goldErrorReason !== null);
  for (const c of goldFailing) {
    out(`KNOWN ${c.taskId}: gold actions fail in the reference too [${c.goldErrors.join(' | ')}] — ${c.goldErrorReason}`);
  }
  out(
    `check-data ${values.domain}: ${checks.length - failed} / ${checks.length} tasks ok` +
      ` (${known.length} known reference issues` +
      `${goldFailing.length > 0 ? `, ${goldFailing.length} with gold actions failing in the reference too` : ''}),` +
      ` ${failed} failed, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return failed === 0 ? 0 : 1;
};
