// The user scenario as the simulator reads it: Python `str(UserScenario)` (reference: data_model/tasks.py).
import { textwrapIndent } from '../py/index.ts';
import type { StructuredUserInstructions, UserScenario } from '../schemas/task.ts';

const renderInstructions = (i: StructuredUserInstructions | string): string => {
  if (typeof i === 'string') return i;
  const lines = [`Domain: ${i.domain}`, `Reason for call:\n${textwrapIndent(i.reason_for_call, '\t')}`];
  if (i.known_info !== null) lines.push(`Known info:\n${textwrapIndent(i.known_info, '\t')}`);
  if (i.unknown_info !== null) lines.push(`Unknown info:\n${textwrapIndent(i.unknown_info, '\t')}`);
  lines.push(`Task instructions:\n${textwrapIndent(i.task_instructions, '\t')}`);
  return lines.join('\n');
};

export const renderUserScenario = (scenario: UserScenario): string => {
  const lines: string[] = [];
  if (scenario.persona !== null) lines.push('Persona:', textwrapIndent(scenario.persona, '\t'));
  lines.push('Instructions:', textwrapIndent(renderInstructions(scenario.instructions), '\t'));
  return lines.join('\n');
};
