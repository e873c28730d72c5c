// How the viewer names who plays a run's agent and user: the model, with the kind only when it is not the usual
// one; a participant no model plays (the caller's own agent or user, the dummy user) is named by its kind alone,
// and an agent answered by a remote endpoint by the endpoint's host: never by a model its run happens to record.
import type { RunConfig } from '../core/schemas/run-config.ts';

const MODEL_PLAYED = new Set<string>(['llm_agent', 'llm_agent_gt', 'llm_agent_solo', 'user_simulator']);
const USUAL = new Set<string>(['llm_agent', 'user_simulator']);

const named = (kind: string, model: string): string => (!MODEL_PLAYED.has(kind) ? kind : USUAL.has(kind) ? model : `${kind} · ${model}`);

const hostOf = (url: string): string => URL.parse(url)?.host ?? url;

export const agentName = (config: Pick<RunConfig, 'agent' | 'llm_agent'> & { readonly agent_endpoint?: { readonly url: string } | null }): string =>
  config.agent_endpoint ? `endpoint ${hostOf(config.agent_endpoint.url)}` : named(config.agent, config.llm_agent);
export const userName = (config: Pick<RunConfig, 'user' | 'llm_user'>): string => named(config.user, config.llm_user);

/** The models that play in a run: what a filter by model offers. */
export const playingModels = (config: Pick<RunConfig, 'agent' | 'llm_agent' | 'user' | 'llm_user' | 'agent_endpoint'>): string[] => [
  ...(MODEL_PLAYED.has(config.agent) && config.agent_endpoint === null ? [config.llm_agent] : []),
  ...(MODEL_PLAYED.has(config.user) ? [config.llm_user] : []),
];
