// Data checks: every task of a domain, played by the oracle through the real engine, must score 1.0
// (tasks the reference itself cannot solve are listed per domain with the reason, and must still fail).
import type { Task } from '../schemas/task.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import type { AnyDomain, DomainData, GoldActionErrors } from '../environment/domain.ts';
import type { UserGuidelines } from '../user/user-simulator.ts';
import type { Clock } from '../orchestrator/clock.ts';
import { isSoloAgent } from '../schemas/episode.ts';
import type { AgentKind } from '../schemas/episode.ts';
import { createOracleClient } from './oracle-client.ts';
import { runSimulation } from './simulation.ts';

export interface TaskCheck {
  readonly taskId: string;
  readonly reward: number | null;
  readonly ok: boolean;
  /** Why the reference task cannot score 1.0, when it is a known broken task. */
  readonly knownIssue: string | null;
  /** The gold actions that failed, as `tool_name: message`, in order. */
  readonly goldErrors: readonly string[];
  /** Why gold actions of this task fail in the reference too, when it is listed as such. */
  readonly goldErrorReason: string | null;
  readonly problems: readonly string[];
  readonly simulation: SimulationRun | null;
}

export interface CheckDeps {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly guidelines: UserGuidelines;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly knownIssues: Readonly<Record<string, string>>;
  /** Tasks whose gold actions are known to fail (see Domain.goldActionErrors); defaults to the domain's list. */
  readonly goldActionErrors?: Readonly<Record<string, GoldActionErrors>>;
  readonly agent?: AgentKind;
}

/** The failed tool calls of a trajectory as `tool_name: message` (the oracle only calls gold actions). */
const failedCalls = (simulation: SimulationRun): string[] => {
  const names = new Map<string, string>();
  const failed: string[] = [];
  for (const message of simulation.messages ?? []) {
    if (message.role === 'tool') {
      if (message.error) failed.push(`${names.get(message.id) ?? '?'}: ${(message.content ?? '').replace(/^Error: /, '')}`);
    } else if (message.role === 'assistant' || message.role === 'user') {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.name);
    }
  }
  return failed;
};

/** Tool calls answered with a refusal text (`Error…`, not an error message), as `tool: text`; calls of a
 * discoverable tool (`call_…` with its name) by that name. */
export const refusedCalls = (simulation: SimulationRun): string[] => {
  const names = new Map<string, string>();
  const refused: string[] = [];
  for (const message of simulation.messages ?? []) {
    if (message.role === 'assistant' || message.role === 'user') {
      for (const call of message.tool_calls ?? []) {
        const named = call.arguments.agent_tool_name ?? call.arguments.discoverable_tool_name;
        names.set(call.id, typeof named === 'string' && call.name.startsWith('call_') ? named : call.name);
      }
    } else if (message.role === 'tool' && !message.error && (message.content ?? '').startsWith('Error')) {
      refused.push(`${names.get(message.id) ?? '?'}: ${message.content}`);
    }
  }
  return refused;
};

export const checkTask = async (task: Task, deps: CheckDeps): Promise<TaskCheck> => {
  const problems: string[] = [];
  const oracle = { client: createOracleClient(task), model: 'oracle', llmArgs: {} };
  const solo = isSoloAgent(deps.agent ?? 'llm_agent');
  // NL assertions need an LLM judge; the data check verifies the gold state, so they count as met.
  const recorded = (task.evaluation_criteria?.nl_assertions ?? []).map((nl_assertion) => ({
    nl_assertion,
    met: true,
    justification: 'not judged: the data check verifies the gold state',
  }));
  let simulation: SimulationRun | null = null;
  try {
    simulation = await runSimulation(
      { task, agent: deps.agent ?? 'llm_agent', trial: 0, seed: null },
      {
        domain: deps.domain,
        data: deps.data,
        guidelines: deps.guidelines,
        agentModel: oracle,
        userModel: solo ? null : oracle,
        judge: { recorded },
        clock: deps.clock,
        newId: deps.newId,
        onUnexpectedToolError: (name, error) =>
          problems.push(`unexpected_tool_exception in ${name}: ${error instanceof Error ? error.stack : String(error)}`),
      },
    );
  } catch (error) {
    problems.push(`simulation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const reward = simulation?.reward_info?.reward.value ?? null;
  const knownIssue = Object.hasOwn(deps.knownIssues, task.id) ? deps.knownIssues[task.id]! : null;
  if (reward !== 1 && knownIssue === null) problems.push(`oracle reward ${reward} (expected 1.0)`);
  if (reward === 1 && knownIssue !== null) problems.push(`listed as broken (${knownIssue}) but the oracle scores 1.0`);
  const goldErrors = simulation ? failedCalls(simulation) : [];
  const listed = (deps.goldActionErrors ?? deps.domain.goldActionErrors ?? {})[task.id];
  const expected = listed?.errors ?? [];
  if (simulation && (goldErrors.length !== expected.length || goldErrors.some((e, i) => e !== expected[i]))) {
    problems.push(
      listed
        ? `gold actions listed to fail with [${expected.join(' | ')}] (${listed.reason}) but failed with [${goldErrors.join(' | ')}]`
        : `gold actions failed: ${goldErrors.join(' | ')}`,
    );
  }
  const knownRefusals = deps.domain.goldActionRefusals;
  if (simulation && knownRefusals) {
    const refused = refusedCalls(simulation);
    const expectedRefusals = knownRefusals[task.id]?.refusals ?? [];
    if (refused.length !== expectedRefusals.length || refused.some((r, i) => r !== expectedRefusals[i])) {
      problems.push(`gold actions refused: [${refused.join(' | ')}] (expected [${expectedRefusals.join(' | ')}])`);
    }
  }
  return {
    taskId: task.id,
    reward,
    ok: problems.length === 0,
    knownIssue,
    goldErrors,
    goldErrorReason: listed?.reason ?? null,
    problems,
    simulation,
  };
};
