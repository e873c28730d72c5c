// What an episode needs from its host: domain data, models and a clock (no I/O of its own).
import type { AnyDomain, DomainData } from '../environment/domain.ts';
import { Environment } from '../environment/environment.ts';
import type { EnvironmentChanges } from '../environment/environment.ts';
import { episodeDomain } from '../environment/episode-domain.ts';
import type { PyValue } from '../py/index.ts';
import type { ModelConfig, Participant } from '../agents/participant.ts';
import { createAgent } from '../agents/agent.ts';
import { createUserSimulator } from '../user/user-simulator.ts';
import type { UserGuidelines } from '../user/user-simulator.ts';
import { isSoloAgent } from '../schemas/episode.ts';
import type { EpisodeState } from '../schemas/episode.ts';
import { isoTimestamp } from './clock.ts';
import type { Clock } from './clock.ts';
import type { ToolServices } from '../environment/tool-services.ts';

export interface EpisodeDeps {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly guidelines: UserGuidelines;
  readonly agentModel: ModelConfig;
  /** Absent in solo mode, where nobody plays the user. */
  readonly userModel: ModelConfig | null;
  readonly clock: Clock;
  readonly onUnexpectedToolError?: (toolName: string, error: unknown) => void;
  /** For tools whose work awaits (dense retrieval, the reranker); absent where no such tool is offered. */
  readonly toolServices?: ToolServices;
}

export const nowIso = (deps: Pick<EpisodeDeps, 'clock'>): (() => string) => () => isoTimestamp(deps.clock.nowMs());

export const isSolo = (state: Pick<EpisodeState, 'agent'>): boolean => isSoloAgent(state.agent);

/** The episode's own view of its domain: the agent toolkit and policy of its retrieval configuration and task. */
export const episodeView = (
  state: Pick<EpisodeState, 'task' | 'retrieval_config' | 'retrieval_config_kwargs'>,
  deps: Pick<EpisodeDeps, 'domain' | 'data'>,
): { domain: AnyDomain; data: DomainData } =>
  episodeDomain(deps.domain, deps.data, state.task, {
    retrievalConfig: state.retrieval_config,
    retrievalConfigKwargs: state.retrieval_config_kwargs as Readonly<Record<string, PyValue>> | null,
  });

export const environmentOf = (state: EpisodeState, deps: EpisodeDeps): Environment => {
  const view = episodeView(state, deps);
  return Environment.restore(view.domain, view.data, envOptions(state, deps), state.environment as EnvironmentChanges);
};

export const envOptions = (state: Pick<EpisodeState, 'agent'>, deps: EpisodeDeps) => ({
  solo: isSolo(state),
  now: nowIso(deps),
  onUnexpectedToolError: deps.onUnexpectedToolError,
  services: deps.toolServices,
});

export const agentOf = (state: EpisodeState, environment: Environment, deps: EpisodeDeps): Participant =>
  createAgent({ kind: state.agent, task: state.task, environment, model: deps.agentModel, now: nowIso(deps) });

export const userOf = (state: EpisodeState, environment: Environment, deps: EpisodeDeps): Participant => {
  if (!deps.userModel) throw new Error('A user simulator model is required outside solo mode');
  return createUserSimulator({
    task: state.task,
    environment,
    guidelines: deps.guidelines,
    model: deps.userModel,
    now: nowIso(deps),
  });
};
