// NL-assertion evaluator: an LLM judge grades the transcript against each expected outcome
// (reference: src/tau2/evaluator/evaluator_nl_assertions.py). Prompts are byte-exact.
import { parsePyJson, pyRepr, pyStr } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { NLAssertionCheck, RewardInfo } from '../schemas/simulation.ts';
import type { ModelConfig } from '../agents/participant.ts';
import { rewardInfo } from './reward-info.ts';

export const NL_JUDGE_SYSTEM_PROMPT =
  '\n        TASK\n        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.\n        - The conversation is between an agent and a customer.\n        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.\n        - Grade each expected outcome individually.\n\n        FORMAT\n        - Your response should be a JSON object with the following fields:\n        - `reasoning`: a short explanation for your classification\n        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise\n        - `expectedOutcome`: repeat the expectation from the input that you are grading\n        \n        Example response structure:\n        {\n            "results": [\n                {\n                    "expectedOutcome": "<one of the expected outcomes from the input>",\n                    "reasoning": "<reasoning trace>",\n                    "metExpectation": <false or true>,\n                }\n            ]\n        }\n        ';

/** The transcript the judge reads: every message, tool calls as `None` content, tool results raw. */
export const judgeTranscript = (trajectory: readonly Message[]): string =>
  trajectory.map((m) => `${m.role}: ${pyStr(m.content)}`).join('\n');

export const nlJudgeUserPrompt = (trajectory: readonly Message[], assertions: readonly string[]): string =>
  `\n        conversation:\n        ${judgeTranscript(trajectory)}\n        \n        expectedOutcomes:\n        ${pyRepr([...assertions])}\n        `;

const asChecks = (content: string): NLAssertionCheck[] => {
  const data = parsePyJson(content) as Record<string, PyValue>;
  const results = (data.results ?? []) as Record<string, PyValue>[];
  return results.map((r) => ({
    nl_assertion: String(r.expectedOutcome),
    met: r.metExpectation === true,
    justification: String(r.reasoning),
  }));
};

/** Asks the judge; an unparseable reply throws (the reference then retries the whole simulation). */
export const judgeNlAssertions = async (
  judge: ModelConfig,
  trajectory: readonly Message[],
  assertions: readonly string[],
): Promise<NLAssertionCheck[]> => {
  const response = await judge.client.generate({
    model: judge.model,
    messages: [
      { role: 'system', content: NL_JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: nlJudgeUserPrompt(trajectory, assertions) },
    ],
    tools: null,
    toolChoice: null,
    llmArgs: judge.llmArgs,
  });
  if (response.content === null) throw new Error('NL assertion judge returned no content');
  return asChecks(response.content);
};

export const nlAssertionsReward = (checks: readonly NLAssertionCheck[]): RewardInfo => {
  const reward = checks.every((c) => c.met) ? 1 : 0;
  return rewardInfo(reward, { nl_assertions: [...checks], reward_breakdown: { NL_ASSERTION: reward } });
};

export const evaluateNlAssertions = async (
  task: Task,
  trajectory: readonly Message[],
  judge: ModelConfig | { readonly recorded: readonly NLAssertionCheck[] | null },
): Promise<RewardInfo> => {
  const assertions = task.evaluation_criteria?.nl_assertions ?? [];
  if (assertions.length === 0) {
    return rewardInfo(1, {
      nl_assertions: [],
      info: { note: 'No nl_assertions to evaluate' },
      reward_breakdown: { NL_ASSERTION: 1 },
    });
  }
  if ('recorded' in judge) {
    if (judge.recorded === null) throw new Error('No recorded NL-assertion verdicts to reuse and no judge model configured');
    return nlAssertionsReward(judge.recorded);
  }
  return nlAssertionsReward(await judgeNlAssertions(judge, trajectory, assertions));
};
