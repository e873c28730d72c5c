// `tau2-edge intro`: a short guided tour (the reference's `tau2 intro`): what the benchmark is, its domains,
// the commands (read from the program itself, so none is left out) and a first session to type.
import type { Command } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { plainTable } from '../plain-table.ts';
import { domains } from '../../../domains/registry.ts';
import { PROVIDERS } from '../../core/llm/providers.ts';

/** What each domain's tasks are about (reference: run_intro's domain table). */
const ABOUT: Readonly<Record<string, string>> = {
  mock: 'Lightweight test domain for development (tasks and users)',
  airline: 'Flight booking, cancellation, and customer support',
  retail: 'Order management, returns, and product inquiries',
  telecom: 'Telecom account management and troubleshooting; the user acts on their own phone',
  'telecom-workflow': 'The telecom tasks with the agent policy written as a workflow',
  banking_knowledge: 'Knowledge-retrieval customer service with configurable retrieval (--retrieval-config)',
};

/**
 * A first session that works as printed from the checkout's root: `bin/tau2-edge` runs without anything on PATH
 * (`npx tau2-edge` does the same), and the first run needs only an OpenAI key.
 */
export const QUICK_START = [
  '# From the checkout: bin/tau2-edge (or npx tau2-edge, or put bin/ on your PATH)',
  '# 1. Check the reference data: the oracle plays every mock task',
  'bin/tau2-edge check-data --domain mock',
  `# 2. Run an evaluation on a local Worker (needs ${PROVIDERS.openai.keyVars[0]}; --in-process runs it in this process)`,
  'bin/tau2-edge run --domain mock --agent-llm gpt-4.1 --user-llm gpt-4.1 --num-trials 1 --num-tasks 5',
  '# 3. Browse the results',
  'bin/tau2-edge view',
  '# 4. Play the agent yourself',
  'bin/tau2-edge play',
];

export const introText = (commands: readonly Command[]): string =>
  [
    'tau2-edge: the τ²-bench benchmark for conversational agents, on Cloudflare Workers or locally.',
    'An agent serves a simulated user under a domain policy; both act on a shared world through tools,',
    'and each simulation is graded against the task (DB state, actions, assertions, what was communicated).',
    '',
    '=== Domains ===',
    plainTable(Object.keys(domains).map((name) => [name, ABOUT[name] ?? ''])),
    '',
    '=== Commands ===',
    plainTable(commands.map((c) => [`tau2-edge ${c.name()}`, c.description()])),
    '',
    '=== Quick Start ===',
    ...QUICK_START,
    '',
    'Tip: run any command with --help for its flags and examples, e.g. bin/tau2-edge run --help',
  ].join('\n');

export const introCommand = (ctx: CliContext): Command => {
  const intro: Command = defineCommand(
    ctx,
    'intro',
    'a short tour of the domains and commands, with a first session to type',
    ['intro | less'],
    (command) => command,
    async () => {
      ctx.out(introText(intro.parent?.commands ?? [intro]));
      return 0;
    },
  );
  return intro;
};
