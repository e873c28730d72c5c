// `tau2-edge view FILE [--sim ID]`: a results file's metrics and simulations, or one simulation's messages.
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { parsePyJson } from '../../core/py/index.ts';
import { ResultsSchema } from '../../core/schemas/simulation.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { computeMetrics, metricsAsDict } from '../../core/metrics/agent-metrics.ts';
import { formatMetrics } from '../format.ts';

const renderSimulation = (sim: SimulationRun): string => {
  const lines = [`simulation ${sim.id} task ${sim.task_id} trial ${sim.trial}: ${sim.termination_reason}`];
  for (const m of sim.messages ?? []) {
    const calls =
      (m.role === 'assistant' || m.role === 'user') && m.tool_calls
        ? ` ${m.tool_calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(' ')}`
        : '';
    lines.push(`  ${String(m.turn_idx).padStart(3)} ${m.role.padEnd(9)} ${m.content ?? ''}${calls}`);
  }
  if (sim.reward_info) lines.push(`  reward ${sim.reward_info.reward.value} ${JSON.stringify(sim.reward_info.reward_breakdown)}`);
  return lines.join('\n');
};

export const viewCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { sim: { type: 'string' } } });
  const file = positionals[0];
  if (!file) throw new Error('usage: tau2-edge view FILE [--sim ID]');
  const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
  if (values.sim) {
    const sim = results.simulations.find((s) => s.id === values.sim);
    if (!sim) throw new Error(`No simulation ${values.sim} in ${file}`);
    out(renderSimulation(sim));
    return 0;
  }
  out(`domain ${results.info.environment_info.domain_name}, agent ${results.info.agent_info.implementation} (${results.info.agent_info.llm}), ${results.info.num_trials} trial(s)`);
  out(formatMetrics(metricsAsDict(computeMetrics(results))));
  for (const sim of results.simulations) {
    const reward = sim.reward_info ? sim.reward_info.reward.value : '-';
    out(`  ${sim.id}  task ${sim.task_id}  trial ${sim.trial}  ${sim.termination_reason}  reward ${reward}`);
  }
  return 0;
};
