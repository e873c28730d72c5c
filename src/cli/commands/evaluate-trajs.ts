// `tau2-edge evaluate-trajs FILE [--out FILE] [--judge-llm MODEL]`: re-grades a reference-format results file.
import { defineCommand } from '../cli-command.ts';
import { saveResults } from '../results-file.ts';
import type { CliContext } from '../cli-command.ts';
import { readFile } from 'node:fs/promises';
import { parsePyJson } from '../../core/py/index.ts';
import { ResultsSchema } from '../../core/schemas/simulation.ts';
import { regradeSimulation, rewardComponents } from '../../core/evaluator/regrade.ts';
import { isoTimestamp, systemClock } from '../../core/orchestrator/clock.ts';
import { loadDomain } from '../data.ts';
import { modelFromFlags } from '../models.ts';

interface EvaluateTrajsFlags {
  readonly out?: string;
  readonly judgeLlm?: string;
  readonly judgeLlmArgs?: string;
  readonly llmBaseUrl?: string;
}

export const evaluateTrajsCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'evaluate-trajs',
    're-grade a results file and report how often the recorded rewards agree',
    ['evaluate-trajs data/simulations/airline.json', 'evaluate-trajs run.json --out regraded.json --judge-llm gpt-4.1-mini'],
    (command) =>
      command
        .argument('<file>', 'a results file in the reference format')
        .option('-o, --out <file>', 'write the re-graded results here')
        .option('--judge-llm <model>', 'the model grading NL assertions (default: reuse the recorded verdicts)')
        .option('--judge-llm-args <json>', "the judge model's arguments as JSON")
        .option('--llm-base-url <url>', "an OpenAI-compatible endpoint for the judge"),
    (file: string, values: EvaluateTrajsFlags) => evaluateTrajs(file, values, ctx.out),
  );

const evaluateTrajs = async (file: string, values: EvaluateTrajsFlags, out: (text: string) => void): Promise<number> => {
  const results = ResultsSchema.parse(parsePyJson(await readFile(file, 'utf8')));
  const { domain, data } = await loadDomain(results.info.environment_info.domain_name);
  const judge = values.judgeLlm
    ? modelFromFlags(values.judgeLlm, values.judgeLlmArgs, values.llmBaseUrl)
    : null;
  if (!judge) out('NL assertions: no judge model configured, reusing the recorded verdicts');

  const agreement = new Map<string, [number, number]>();
  let agree = 0;
  let total = 0;
  const regradedSims = [];
  for (const simulation of results.simulations) {
    if (simulation.termination_reason === 'infrastructure_error') {
      regradedSims.push(simulation);
      continue;
    }
    const r = await regradeSimulation(simulation, results, {
      domain,
      data,
      judge,
      now: () => isoTimestamp(systemClock.nowMs()),
    });
    regradedSims.push({ ...simulation, reward_info: r.regraded });
    total += 1;
    const differing = Object.keys(r.differences);
    if (differing.length === 0) agree += 1;
    else {
      const detail = differing.map((k) => `${k}: ${String(r.differences[k]![0])} -> ${String(r.differences[k]![1])}`);
      out(`DIFF task ${simulation.task_id} trial ${simulation.trial} sim ${simulation.id}: ${detail.join(', ')}`);
    }
    for (const w of r.replayWarnings) out(`WARN task ${simulation.task_id}: replay output differs\n${w}`);
    const families = new Set(
      [...Object.keys(rewardComponents(r.recorded)), ...Object.keys(rewardComponents(r.regraded))].map(family),
    );
    const differingFamilies = new Set(differing.map(family));
    for (const key of families) {
      const [ok, n] = agreement.get(key) ?? [0, 0];
      agreement.set(key, [ok + (differingFamilies.has(key) ? 0 : 1), n + 1]);
    }
  }
  for (const [key, [ok, n]] of [...agreement].sort()) out(`  ${key}: ${ok} / ${n}`);
  if (values.out) {
    await saveResults(values.out, { ...results, simulations: regradedSims });
  }
  out(`agree ${agree} / ${total}`);
  return agree === total ? 0 : 1;
};

/** `action[2] book_reservation` → `action`: agreement is reported per kind of component. */
const family = (key: string): string => key.replace(/\[.*$/, '');
