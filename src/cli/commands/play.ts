// `tau2-edge play`: a person plays the agent (or the user) of one episode in the terminal, through the step API
// of a serving worker (--api) or of a local worker started for it (the reference's `tau2 play`).
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { withApi } from '../run-remote.ts';
import { playedMessage } from '../../core/gym-action.ts';
import { loadDomain } from '../data.ts';
import { selectTasks } from '../../core/tasks.ts';
import type { ApiClient } from '../../client/index.ts';
import type { EpisodeCreateInput, EpisodeStep } from '../../core/schemas/api.ts';
import { domains } from '../../../domains/registry.ts';

interface PlayFlags {
  readonly domain: string;
  readonly taskId?: string;
  readonly role: 'agent' | 'user';
  readonly solo?: boolean;
  readonly agentLlm?: string;
  readonly userLlm?: string;
  readonly judgeLlm?: string;
  readonly retrievalConfig?: string;
  readonly api?: string;
  readonly llmBaseUrl?: string;
}

type WireMessage = Record<string, unknown>;

/** One observed message as a line: whose it is (from the player's side) and what it says. */
const render = (role: 'agent' | 'user', message: WireMessage): string => {
  const other = role === 'agent' ? 'user' : 'agent';
  const calls = (message.tool_calls as { function: { name: string; arguments: string } }[] | null | undefined) ?? [];
  switch (message.role) {
    case 'tool':
      return `  tool result: ${String(message.content)}`;
    case 'assistant':
      return `  you: ${message.content ?? ''}${calls.map((c) => ` ${c.function.name}(${c.function.arguments})`).join('')}`;
    default:
      return `  ${other}: ${String(message.content)}`;
  }
};

const toolLines = (tools: readonly WireMessage[]): string[] =>
  tools.map((t) => {
    const fn = t.function as { name: string; description?: string; parameters?: { properties?: Record<string, unknown> } };
    return `  ${fn.name}(${Object.keys(fn.parameters?.properties ?? {}).join(', ')}): ${(fn.description ?? '').split('\n')[0]}`;
  });

const help = (role: 'agent' | 'user'): string =>
  [
    'Type a message, or a tool call: name(arg=\'value\', n=2) or {"name": "…", "arguments": {…}}.',
    `Commands: tools, ${role === 'agent' ? 'policy' : 'scenario'}, help, quit.`,
    role === 'user' ? 'End the conversation with ###STOP### (or ###TRANSFER###, ###OUT-OF-SCOPE###) in your message.' : 'Call done() or say ###STOP### to end (solo mode: done()).',
  ].join('\n');

const play = async (flags: PlayFlags, ctx: CliContext, client: ApiClient): Promise<number> => {
  const first = async () => {
    const { data } = await loadDomain(flags.domain);
    return selectTasks(flags.domain, data.tasks, data.splits, { split: data.splits ? 'base' : null, taskIds: null, numTasks: 1 })[0]?.id;
  };
  const taskId = flags.taskId ?? (await first());
  if (taskId === undefined) throw new Error(`domain ${flags.domain} has no tasks`);
  const request: EpisodeCreateInput = {
    domain: flags.domain,
    task_id: taskId,
    role: flags.role,
    solo: flags.solo ?? false,
    ...(flags.agentLlm === undefined ? {} : { llm_agent: flags.agentLlm }),
    ...(flags.userLlm === undefined ? {} : { llm_user: flags.userLlm }),
    ...(flags.judgeLlm === undefined ? {} : { llm_judge: flags.judgeLlm }),
    ...(flags.retrievalConfig === undefined ? {} : { retrieval_config: flags.retrievalConfig }),
  };
  const created = await client.createEpisode(request);
  const { policy, instructions, tools = [] } = created.observation;
  ctx.out(`episode ${created.episode_id} (run ${created.run_id}): task ${taskId}, you play the ${flags.role}`);
  ctx.out(help(flags.role));
  for (const message of created.observation.messages) ctx.out(render(flags.role, message));
  let step = created.step;
  let last: EpisodeStep | null = created.done ? { step, done: true, termination_reason: null, observation: { messages: [] } } : null;
  const input = createInterface({ input: process.stdin, terminal: false });
  try {
    const lines = input[Symbol.asyncIterator]();
    while (last === null || !last.done) {
      // A prompt only for a person at a terminal; piped input gets clean output lines.
      if (process.stdin.isTTY) process.stdout.write(`[step ${step}] > `);
      const next = await lines.next();
      if (next.done) break;
      const line = next.value.trim();
      if (line === 'quit') break;
      if (line === '') continue;
      if (line === 'help') ctx.out(help(flags.role));
      else if (line === 'tools') ctx.out(toolLines(tools).join('\n') || '  (no tools)');
      else if (line === 'policy' && policy !== undefined) ctx.out(policy);
      else if (line === 'scenario' && instructions !== undefined) ctx.out(instructions);
      else {
        let message;
        try {
          message = playedMessage(next.value, step);
        } catch (error) {
          ctx.out(`not sent: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        last = await client.step(created.episode_id, step, message);
        step = last.step;
        for (const observed of last.observation.messages) ctx.out(render(flags.role, observed));
      }
    }
  } finally {
    input.close();
  }
  if (last === null || !last.done) {
    ctx.out(`left episode ${created.episode_id} at step ${step}: it ends as a timeout once idle past the limit`);
    return 0;
  }
  const reward = (last.reward_info as { reward?: number } | null | undefined)?.reward;
  const breakdown = (last.reward_info as { reward_breakdown?: Record<string, number> | null } | null | undefined)?.reward_breakdown;
  ctx.out(`episode over: ${last.termination_reason ?? 'done'}, reward ${reward === undefined ? 'n/a' : reward.toFixed(1)}`);
  if (breakdown) ctx.out(`  ${Object.entries(breakdown).map(([k, v]) => `${k} ${Number(v).toFixed(1)}`).join(', ')}`);
  return 0;
};

export const playCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'play',
    'play the agent (or the user) of one episode in the terminal, through the step API',
    ['play --domain mock --task-id create_task_1', 'play --domain airline --role user --agent-llm gpt-4.1-mini', 'play --domain telecom --solo --api https://tau2.example.com'],
    (command: Command) =>
      command
        .requiredOption('-d, --domain <domain>', `the domain (${Object.keys(domains).join(', ')})`)
        .option('--task-id <id>', 'the task (default: the first of the base split)')
        .option('--role <role>', 'agent or user', (v: string) => {
          if (v !== 'agent' && v !== 'user') throw new Error(`--role takes agent or user, not '${v}'`);
          return v;
        }, 'agent')
        .option('--solo', 'no user: you hold the user tools too and end with done() (agent role)')
        .option('--agent-llm <model>', "the built-in agent's model (--role user)")
        .option('--user-llm <model>', "the simulated user's model (--role agent)")
        .option('--judge-llm <model>', 'the model grading NL assertions')
        .option('--retrieval-config <name>', 'the knowledge retrieval configuration (banking_knowledge, e.g. no_knowledge)')
        .option('--llm-base-url <url>', 'the local worker\'s OpenAI-compatible provider (default: OPENAI_BASE_URL, else OpenAI)')
        .option('--api <url>', 'play on a tau2-edge API already serving (key: TAU2_EDGE_API_KEY), instead of a local worker'),
    (flags: PlayFlags) => withApi(flags.api?.replace(/\/+$/, '') ?? null, flags.llmBaseUrl ?? null, ctx.out, (client) => play(flags, ctx, client)),
  );
