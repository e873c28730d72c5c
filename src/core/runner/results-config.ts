// The run configuration a results file records in its info: what the viewer shows for the file's run, and what
// a fork of one of its simulations continues under. Agent and user kinds this version does not know read as the defaults.
import { RunConfigSchema } from '../schemas/run-config.ts';
import type { RunConfig, RunConfigInput } from '../schemas/run-config.ts';
import { AgentKindSchema, UserKindSchema } from '../schemas/episode.ts';
import type { Info } from '../schemas/simulation.ts';

export const runConfigOfInfo = (info: Info, overrides: Partial<RunConfigInput> = {}): RunConfig => {
  const agent = AgentKindSchema.safeParse(info.agent_info.implementation);
  const user = UserKindSchema.safeParse(info.user_info.implementation);
  return RunConfigSchema.parse({
    domain: info.environment_info.domain_name,
    agent: agent.success ? agent.data : undefined,
    user: user.success ? user.data : undefined,
    ...(info.agent_info.llm ? { llm_agent: info.agent_info.llm } : {}),
    ...(info.user_info.llm ? { llm_user: info.user_info.llm } : {}),
    num_trials: info.num_trials,
    max_steps: info.max_steps,
    max_errors: info.max_errors,
    ...(info.seed === null ? {} : { seed: info.seed }),
    retrieval_config: info.retrieval_config ?? null,
    retrieval_config_kwargs: info.retrieval_config_kwargs ?? null,
    ...overrides,
  });
};
