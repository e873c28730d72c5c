// A conversation participant: the agent or the simulated user, answering from the shared trajectory.
import type { PyValue } from '../py/index.ts';
import type { Message, ParticipantMessage } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { Environment } from '../environment/environment.ts';
import type { LlmClient, LlmRequest, LlmResponse } from '../llm/types.ts';

/** A participant's model request without the model name (the producer of the turn knows the model). */
export type TurnRequest = Omit<LlmRequest, 'model'>;

export interface Participant {
  /** The model request of the next turn, given the whole trajectory (each participant filters its own view). */
  request(trajectory: readonly Message[], seed: number | null): TurnRequest;
  /** The message a model response makes, validated as the reference does (throws to fail the attempt). */
  accept(response: LlmResponse): ParticipantMessage;
  isStop(message: ParticipantMessage): boolean;
}

/** One turn in-process: request, call the participant's model, accept the response. */
export const respond = async (
  participant: Participant,
  model: Pick<ModelConfig, 'client' | 'model'>,
  trajectory: readonly Message[],
  seed: number | null,
): Promise<ParticipantMessage> =>
  participant.accept(await model.client.generate({ ...participant.request(trajectory, seed), model: model.model }));

/** A model to call: the client (provider endpoint), the model name and its completion arguments. */
export interface ModelConfig {
  readonly client: LlmClient;
  readonly model: string;
  readonly llmArgs: Readonly<Record<string, PyValue>>;
}

/** Completion arguments for one call: the configured ones with the trial's seed, as the reference sets it. */
export const argsWithSeed = (
  llmArgs: Readonly<Record<string, PyValue>>,
  seed: number | null,
): Record<string, PyValue> => (seed === null ? { ...llmArgs } : { ...llmArgs, seed });

/** What every participant is built from: its task, the episode's environment, its model and a clock. */
export interface ParticipantContext {
  readonly task: Task;
  readonly environment: Environment;
  readonly model: ModelConfig;
  readonly now: () => string;
}
