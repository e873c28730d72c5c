// `tau2-edge check-data --domain D`: the oracle plays every task; one line per failing task, then a summary.
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { checkTask } from '../../core/runner/check-data.ts';
import type { TaskCheck } from '../../core/runner/check-data.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { selectTasks } from '../../core/tasks.ts';
import { AgentKindSchema } from '../../core/schemas/episode.ts';
import { loadDomain } from '../data.ts';

export const checkDataCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values } = parseArgs({
    args: argv,
    options: {
      domain: { type: 'string', short: 'd' },
      split: { type: 'string' },
      agent: { type: 'string', default: 'llm_agent' },
    },
  });
  if (!values.domain) throw new Error('--domain is required');
  const agent = AgentKindSchema.parse(values.agent);
  const started = Date.now();
  const { domain, data, guidelines } = await loadDomain(values.domain);
  const tasks = selectTasks(values.domain, data.tasks, data.splits, { split: values.split ?? null });
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
