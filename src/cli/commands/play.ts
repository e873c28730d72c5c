// `tau2-edge play`: a person plays the agent (or the user) of one episode in the terminal, through the step API
// of a serving worker (--api) or of a local worker started for it (the reference's `tau2 play`).
import type { Command } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { withApi } from '../run/remote.ts';
import { LLM_BASE_URL_DEFAULT } from '../run/models.ts';
import { terminalAsker } from '../ask.ts';
import type { Asker } from '../ask.ts';
import { playedMessage } from '../../core/gym-action.ts';
import { loadDomain } from '../data.ts';
import { selectTasks } from '../../core/tasks.ts';
import type { ApiClient } from '../../client/index.ts';
import type { EpisodeCreateInput, EpisodeStep } from '../../api/index.ts';
import { domains } from '../../../domains/registry.ts';

interface PlayFlags {
  readonly domain?: string;
  readonly taskId?: string;
  readonly role?: 'agent' | 'user';
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

/** What an episode needs: the domain, the role and the task. */
type PlayChoices = PlayFlags & { readonly domain: string; readonly role: 'agent' | 'user'; readonly taskId: string };

/** The tasks a player picks from: the domain's base split when it has one (reference: the split picked first). */
const playableTasks = async (domain: string) => {
  const { data } = await loadDomain(domain);
  return selectTasks(domain, data.tasks, data.splits, { split: data.splits ? 'base' : null, taskIds: null, numTasks: null });
};

/** One of `count` numbered entries, asked for until a number in range is given (1 by default). */
const pickNumber = async (asker: Asker, question: string, count: number, out: (text: string) => void): Promise<number> => {
  for (;;) {
    const choice = Number((await asker.ask(`${question} (1-${count})`, { default: '1' })).trim());
    if (Number.isInteger(choice) && choice >= 1 && choice <= count) return choice - 1;
    out(`Please enter a number between 1 and ${count}`);
  }
};

/**
 * The flags completed as the reference's `tau2 play` asks: without --domain, the domain, whether to play the user,
 * solo mode (as the agent), the other side's model and the task; with it, the first task of the base split
 * unless --task-id names one.
 */
const choose = async (flags: PlayFlags, asker: Asker, out: (text: string) => void): Promise<PlayChoices> => {
  if (flags.domain !== undefined) {
    const taskId = flags.taskId ?? (await playableTasks(flags.domain))[0]?.id;
    if (taskId === undefined) throw new Error(`domain ${flags.domain} has no tasks`);
    return { ...flags, domain: flags.domain, role: flags.role ?? 'agent', taskId };
  }
  const names = Object.keys(domains);
  out('Available domains:');
  names.forEach((name, i) => out(`  ${i + 1}. ${name}`));
  const domain = names[await pickNumber(asker, 'Select a domain', names.length, out)]!;
  const role = flags.role ?? ((await asker.confirm('Play as User?', false)) ? 'user' : 'agent');
  const solo = role === 'agent' && flags.solo === undefined ? await asker.confirm('Enable Solo Mode?', false) : flags.solo;
  const other = role === 'user' ? 'Agent' : 'User';
  const given = role === 'user' ? flags.agentLlm : flags.userLlm;
  const model = given ?? (solo ? '' : (await asker.ask(`Enter ${other} LLM name (or press Enter for default)`, { default: '' })).trim());
  const tasks = await playableTasks(domain);
  if (tasks.length === 0) throw new Error(`domain ${domain} has no tasks`);
  let taskId = flags.taskId;
  if (taskId === undefined) {
    out(`Available tasks for ${domain}:`);
    tasks.forEach((task, i) => out(`  ${i + 1}. ${task.id}${task.description?.purpose ? `  ${task.description.purpose.split('\n')[0]}` : ''}`));
    taskId = tasks[await pickNumber(asker, 'Select a task', tasks.length, out)]!.id;
  }
  return {
    ...flags,
    domain,
    role,
    taskId,
    ...(solo === undefined ? {} : { solo }),
    ...(model === '' ? {} : role === 'user' ? { agentLlm: model } : { userLlm: model }),
  };
};

const play = async (flags: PlayChoices, ctx: CliContext, client: ApiClient, asker: Asker): Promise<number> => {
  const taskId = flags.taskId;
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
  {
    while (last === null || !last.done) {
      // A prompt only for a person at a terminal; piped input gets clean output lines.
      const typed = await asker.line(process.stdin.isTTY ? `[step ${step}] > ` : undefined);
      if (typed === null) break;
      const line = typed.trim();
      if (line === 'quit') break;
      if (line === '') continue;
      if (line === 'help') ctx.out(help(flags.role));
      else if (line === 'tools') ctx.out(toolLines(tools).join('\n') || '  (no tools)');
      else if (line === 'policy' && policy !== undefined) ctx.out(policy);
      else if (line === 'scenario' && instructions !== undefined) ctx.out(instructions);
      else {
        let message;
        try {
          message = playedMessage(typed, step);
        } catch (error) {
          ctx.out(`not sent: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        last = await client.step(created.episode_id, step, message);
        step = last.step;
        for (const observed of last.observation.messages) ctx.out(render(flags.role, observed));
      }
    }
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
        .option('-d, --domain <domain>', `the domain (${Object.keys(domains).join(', ')}); without it, play asks for the domain, role, mode, model and task`)
        .option('--task-id <id>', 'the task (default with --domain: the first of the base split)')
        .option('--role <role>', 'agent or user (default with --domain: agent)', (v: string) => {
          if (v !== 'agent' && v !== 'user') throw new Error(`--role takes agent or user, not '${v}'`);
          return v;
        })
        .option('--solo', 'no user: you hold the user tools too and end with done() (agent role)')
        .option('--agent-llm <model>', "the built-in agent's model (--role user)")
        .option('--user-llm <model>', "the simulated user's model (--role agent)")
        .option('--judge-llm <model>', 'the model grading NL assertions')
        .option('--retrieval-config <name>', 'the knowledge retrieval configuration (banking_knowledge, e.g. no_knowledge)')
        .option('--llm-base-url <url>', `the local worker's OpenAI-compatible provider (${LLM_BASE_URL_DEFAULT})`)
        .option('--api <url>', 'play on a tau2-edge API already serving (key: TAU2_EDGE_API_KEY), instead of a local worker'),
    async (flags: PlayFlags) => {
      // One reader of the input for the questions and the turns, so piped answers reach both.
      const asker = terminalAsker(ctx.out);
      try {
        // Asked before the local worker starts, so no answer waits on it.
        const choices = await choose(flags, asker, ctx.out);
        return await withApi(flags.api?.replace(/\/+$/, '') ?? null, flags.llmBaseUrl ?? null, ctx.out, (client) => play(choices, ctx, client, asker));
      } finally {
        asker.close();
      }
    },
  );
