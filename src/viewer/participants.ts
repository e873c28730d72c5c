// How the viewer names who plays a run's agent and user: the model, with the kind only when it is not the usual
// one; a participant no model plays (the caller's own agent or user, the dummy user) is named by its kind alone,
// never by a model its run happens to record.
import type { RunConfig } from '../core/schemas/run-config.ts';

const MODEL_PLAYED = new Set<string>(['llm_agent', 'llm_agent_gt', 'llm_agent_solo', 'user_simulator']);
const USUAL = new Set<string>(['llm_agent', 'user_simulator']);

const named = (kind: string, model: string): string => (!MODEL_PLAYED.has(kind) ? kind : USUAL.has(kind) ? model : `${kind} · ${model}`);

export const agentName = (config: Pick<RunConfig, 'agent' | 'llm_agent'>): string => named(config.agent, config.llm_agent);
export const userName = (config: Pick<RunConfig, 'user' | 'llm_user'>): string => named(config.user, config.llm_user);
