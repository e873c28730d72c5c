// Readable plain text of a run and its simulations for `tau2-edge view`: a header, a table of simulations, and
// one simulation's conversation and reward checks.
import { dumpsPy } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import type { Message } from '../../core/schemas/message.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { plainTable } from '../plain-table.ts';

/** Tool results longer than this are cut, as the reference's viewer does by default. */
export const MAX_TOOL_RESULT_CHARS = 500;

const rewardText = (sim: SimulationRun): string => (sim.reward_info ? sim.reward_info.reward.value.toFixed(1) : '-');

export const runHeader = (results: Results): string => {
  const { info } = results;
  return [
    `domain ${info.environment_info.domain_name} · agent ${info.agent_info.implementation} (${info.agent_info.llm ?? '-'}) · user ${info.user_info.implementation} (${info.user_info.llm ?? '-'})`,
    `${results.tasks.length} task(s) × ${info.num_trials} trial(s) · seed ${info.seed ?? '-'} · ${results.simulations.length} simulation(s) · ${results.timestamp ?? ''}`.trimEnd(),
  ].join('\n');
};

/** One row per simulation, ordered by task then trial. */
export const simulationsTable = (simulations: readonly SimulationRun[]): string => {
  const rows = [...simulations]
    .sort((a, b) => a.task_id.localeCompare(b.task_id) || (a.trial ?? 0) - (b.trial ?? 0))
    .map((s) => [s.id, s.task_id, String(s.trial ?? '-'), s.termination_reason, rewardText(s), `${s.duration.value.toFixed(1)}s`]);
  return plainTable([['simulation', 'task', 'trial', 'termination', 'reward', 'duration'], ...rows]);
};

const indent = (text: string, prefix: string): string => text.split('\n').join(`\n${prefix}`);

/** How much of a turn's reasoning shows collapsed (the default): its opening, on one line. */
const REASONING_PREVIEW_CHARS = 80;

/** The reasoning a provider showed for a participant's turn: collapsed to one line, or whole. */
const reasoningLines = (m: Message, whole: boolean): string[] => {
  const text = m.role === 'assistant' || m.role === 'user' ? m.provider_state?.reasoning : null;
  if (!text) return [];
  if (whole) return [`${' '.repeat(11)}reasoning: ${indent(text, ' '.repeat(22))}`];
  const line = text.replace(/\s+/g, ' ').trim();
  const preview = line.length > REASONING_PREVIEW_CHARS ? `${line.slice(0, REASONING_PREVIEW_CHARS)}…` : line;
  return [`${' '.repeat(11)}reasoning (${text.length} chars; --reasoning shows it): ${preview}`];
};

/** A tool result as shown: cut after `maxChars` characters (null: whole). */
const toolResultText = (content: string, maxChars: number | null): string =>
  maxChars !== null && content.length > maxChars ? `${content.slice(0, maxChars)}… (${content.length} chars)` : content;

/** How a simulation is shown: tool results cut after `maxToolResultChars` (null: whole), reasoning whole or on one line. */
export interface SimulationView {
  readonly maxToolResultChars?: number | null;
  readonly wholeReasoning?: boolean;
}

const messageText = (m: Message, maxToolResultChars: number | null, wholeReasoning: boolean): string => {
  const who = m.role === 'assistant' ? 'agent' : m.role;
  const turn = String(m.turn_idx ?? '').padStart(3);
  const lines: string[] = [];
  if (m.role === 'tool') {
    const cut = toolResultText(m.content ?? '', maxToolResultChars);
    lines.push(`${turn} ${'tool'.padEnd(6)} ${m.error ? '[error] ' : ''}${indent(cut, ' '.repeat(11))}`);
    return lines.join('\n');
  }
  if (m.content !== null && m.content !== '') lines.push(`${turn} ${who.padEnd(6)} ${indent(m.content, ' '.repeat(11))}`);
  lines.push(...reasoningLines(m, wholeReasoning));
  if (m.role !== 'system') {
    for (const call of m.tool_calls ?? []) {
      lines.push(`${lines.length === 0 ? turn : '   '} ${(lines.length === 0 ? who : '').padEnd(6)} → ${call.name}(${dumpsPy(call.arguments as PyValue)})`);
    }
  }
  return lines.length > 0 ? lines.join('\n') : `${turn} ${who.padEnd(6)} (empty)`;
};

const checks = (sim: SimulationRun): string[] => {
  const info = sim.reward_info;
  if (!info) return sim.info ? [`  error: ${String(sim.info['error'] ?? '')}`] : [];
  const lines = [`  reward ${info.reward.value} over ${(info.reward_basis ?? []).join(', ')}`];
  if (info.reward_breakdown) {
    lines.push(`  breakdown ${Object.entries(info.reward_breakdown).map(([k, v]) => `${k} ${v!.value}`).join(', ')}`);
  }
  if (info.db_check) lines.push(`  db match: ${info.db_check.db_match}`);
  for (const a of info.action_checks ?? []) lines.push(`  action ${a.action.name}: ${a.action_match ? 'matched' : 'not matched'}`);
  for (const e of info.env_assertions ?? []) lines.push(`  env assertion ${e.env_assertion.func_name}: ${e.met ? 'met' : 'not met'}`);
  for (const n of info.nl_assertions ?? []) lines.push(`  nl assertion "${n.nl_assertion}": ${n.met ? 'met' : 'not met'} — ${n.justification}`);
  for (const c of info.communicate_checks ?? []) lines.push(`  communicate "${c.info}": ${c.met ? 'met' : 'not met'}`);
  if (info.info) lines.push(`  note: ${dumpsPy(info.info as PyValue)}`);
  return lines;
};

/** A simulation's conversation and its reward checks. */
export const renderSimulation = (sim: SimulationRun, { maxToolResultChars = MAX_TOOL_RESULT_CHARS, wholeReasoning = false }: SimulationView = {}): string =>
  [
    `simulation ${sim.id} · task ${sim.task_id} · trial ${sim.trial ?? '-'} · ${sim.termination_reason} · reward ${rewardText(sim)} · ${sim.duration.value.toFixed(1)}s`,
    ...(sim.messages ?? []).map((m) => messageText(m, maxToolResultChars, wholeReasoning)),
    ...checks(sim),
  ].join('\n');
