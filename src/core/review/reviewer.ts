// The LLM conversation review of one finished simulation (reference: review_simulation in
// src/tau2/evaluator/reviewer.py, half-duplex): `full` asks the reviewer model for agent and user errors, then
// classifies the user's authentication; `user` asks for the user simulator's errors only. The model is called
// through the engine's LlmClient; an unreadable answer becomes a review that says so, as in the reference.
import type { LlmClient } from '../llm/types.ts';
import { pyFloat, pyStr } from '../py/index.ts';
import type { Message } from '../schemas/message.ts';
import type { AuthenticationClassification, Review, ReviewError, UserOnlyReview } from '../schemas/review.ts';
import type { Task } from '../schemas/task.ts';
import { renderUserScenario } from '../user/scenario.ts';
import { displayActions, displayMessages, userVisibleMessages } from './markdown-display.ts';
import {
  AUTH_SYSTEM_PROMPT,
  AUTH_USER_TEMPLATE,
  FULL_REVIEW_SYSTEM_PROMPT,
  FULL_REVIEW_USER_TEMPLATE,
  USER_REVIEW_SYSTEM_TEMPLATE,
  USER_REVIEW_USER_TEMPLATE,
} from './prompts.ts';
import { parseAuthentication, parseReview, parseUserOnlyReview } from './review-response.ts';

export type ReviewMode = 'full' | 'user';

/** The reference's DEFAULT_LLM_EVAL_USER_SIMULATOR. */
export const DEFAULT_REVIEW_MODEL = 'claude-opus-4-5';

export interface Reviewer {
  readonly client: LlmClient;
  readonly model: string;
  /** Wraps the client for each call, given the reference's name of the call (`review --log-llm` logs through it). */
  readonly forCall?: (callName: ReviewCallName, client: LlmClient) => LlmClient;
}

/** The reference's names of the reviewer's calls. */
export type ReviewCallName = 'llm_judge_review' | 'llm_judge_user_only_review' | 'classify_authentication';

/** What the review needs from the results file besides the simulation. */
export interface ReviewContext {
  readonly policy: string;
  readonly simulationGuidelines: string | null;
}

export type SimulationReview =
  | { readonly mode: 'full'; readonly review: Review; readonly auth: AuthenticationClassification | null }
  | {
      readonly mode: 'user';
      readonly review: UserOnlyReview;
      /** The reviewer's answer as given (see statedUserErrors); absent when no answer came. */
      readonly answer?: string;
    };

/** Fills `{name}` placeholders in one pass, as Python's str.format does (a filled-in value is never re-read). */
const fill = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

const ask = async (reviewer: Reviewer, callName: ReviewCallName, system: string, user: string) => {
  const client = reviewer.forCall ? reviewer.forCall(callName, reviewer.client) : reviewer.client;
  const response = await client.generate({
    model: reviewer.model,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    tools: null,
    toolChoice: null,
    llmArgs: {},
  });
  return { content: response.content, cost: response.cost };
};

/** The answer's text; a missing one fails as the reference's regular expression does on None. */
const answerText = (content: string | null): string => {
  if (content === null) throw new Error("expected string or bytes-like object, got 'NoneType'");
  return content;
};

const failedToParse = (error: unknown, content: string | null): string =>
  `Failed to parse LLM response: ${error instanceof Error ? error.message : String(error)}. Response: ${pyStr(content)}`;

const guidelinesOf = (context: ReviewContext): string => {
  if (!context.simulationGuidelines) throw new Error('No global user simulator guidelines provided');
  return context.simulationGuidelines;
};

const messagesOf = (messages: readonly Message[] | null): readonly Message[] => {
  if (messages === null) throw new Error("'NoneType' object is not iterable");
  return messages;
};

const fullReview = async (messages: readonly Message[], task: Task, context: ReviewContext, reviewer: Reviewer): Promise<Review> => {
  if (!context.policy) throw new Error('policy is required for FULL review mode');
  const guidelines = guidelinesOf(context);
  const criteria = task.evaluation_criteria;
  if (criteria === null) throw new Error("'NoneType' object has no attribute 'actions'");
  if (criteria.actions === null) throw new Error("'NoneType' object is not iterable");
  const prompt = fill(FULL_REVIEW_USER_TEMPLATE, {
    policy: context.policy,
    simulation_guidelines: guidelines,
    user_instructions: renderUserScenario(task.user_scenario),
    example_action_trajectory: displayActions(criteria.actions),
    natural_language_assertions: criteria.nl_assertions === null || criteria.nl_assertions.length === 0 ? '' : pyStr(criteria.nl_assertions),
    conversation: displayMessages(messages),
  });
  const { content, cost } = await ask(reviewer, 'llm_judge_review', FULL_REVIEW_SYSTEM_PROMPT, prompt);
  try {
    return parseReview(answerText(content), cost);
  } catch (error) {
    const reasoning = failedToParse(error, content);
    const unreadable: ReviewError = {
      source: 'unknown', error_type: null, error_tags: [], severity: null, turn_idx: null, tick_start: null, tick_end: null, reasoning, correct_behavior: null,
    };
    return { summary: '', agent_error: false, user_error: false, critical_user_error: false, has_errors: false, errors: [unreadable], cost: pyFloat(cost) };
  }
};

const userOnlyReview = async (messages: readonly Message[], task: Task, context: ReviewContext, reviewer: Reviewer): Promise<SimulationReview> => {
  const system = fill(USER_REVIEW_SYSTEM_TEMPLATE, { user_guidelines: guidelinesOf(context) });
  const prompt = fill(USER_REVIEW_USER_TEMPLATE, {
    user_instructions: renderUserScenario(task.user_scenario),
    conversation: displayMessages(userVisibleMessages(messages)),
  });
  const { content, cost } = await ask(reviewer, 'llm_judge_user_only_review', system, prompt);
  const answer = content === null ? {} : { answer: content };
  try {
    return { mode: 'user', review: parseUserOnlyReview(answerText(content), cost), ...answer };
  } catch (error) {
    const unreadable = {
      turn_idx: -1, tick_start: null, tick_end: null, error_type: 'content_error', error_tags: [], severity: null,
      reasoning: failedToParse(error, content), user_message: null, correct_behavior: null,
    };
    return { mode: 'user', review: { summary: '', user_error: false, critical_user_error: false, has_errors: false, errors: [unreadable], cost: pyFloat(cost) }, ...answer };
  }
};

const classifyAuthentication = async (messages: readonly Message[], reviewer: Reviewer): Promise<AuthenticationClassification> => {
  const { content, cost } = await ask(reviewer, 'classify_authentication', AUTH_SYSTEM_PROMPT, fill(AUTH_USER_TEMPLATE, { conversation: displayMessages(messages) }));
  return parseAuthentication(answerText(content), cost);
};

/** Reviews one simulation; provider failures and missing inputs throw (the caller records an empty review). */
export const reviewSimulation = async (
  simulation: { readonly messages: readonly Message[] | null },
  task: Task,
  mode: ReviewMode,
  context: ReviewContext,
  reviewer: Reviewer,
): Promise<SimulationReview> => {
  const messages = messagesOf(simulation.messages);
  if (mode === 'user') return userOnlyReview(messages, task, context, reviewer);
  const review = await fullReview(messages, task, context, reviewer);
  return { mode, review, auth: await classifyAuthentication(messages, reviewer) };
};
