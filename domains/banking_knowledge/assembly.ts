// The banking_knowledge agent toolkit and policy of one episode, from the run's retrieval configuration and
// the task (reference: get_environment's retrieval_variant / retrieval_kwargs / task / read_log_allowlist,
// build_tools, build_policy, get_info_policy_override and runner/build.py's _derive_read_log_allowlist).
import type { DomainData, EpisodeAssembly } from '../../src/core/environment/domain.ts';
import type { Task } from '../../src/core/schemas/task.ts';
import type { KnowledgeDb } from './data_model.ts';
import { GOLDEN_RETRIEVAL, TASK_SPECIFIC_POLICY, goldenPolicy } from './policy.ts';
import { resolveVariant } from './retrieval.ts';
import { retrievalTools } from './retrieval-tools.ts';
import { knowledgeTools } from './tools.ts';
import { z } from 'zod';
import { DEFAULT_RETRIEVAL_CONFIG, RETRIEVAL_CONFIG_NAMES, RetrievalConfigKwargsSchema } from '../../src/core/knowledge/configs.ts';

/** The discoverable tools the task's gold actions call: their reads are logged, so the DB check can require them. */
export const readLogAllowlist = (task: Task): Set<string> => {
  const names = new Set<string>();
  for (const action of task.evaluation_criteria?.actions ?? []) {
    if (action.name !== 'call_discoverable_agent_tool') continue;
    const name = action.arguments.agent_tool_name;
    if (typeof name === 'string' && name !== '') names.add(name);
  }
  return names;
};

type Data = DomainData<KnowledgeDb, KnowledgeDb>;

const policies = (data: Data): Readonly<Record<string, string>> => {
  if (!data.policies) throw new Error('banking_knowledge data was loaded without its policies');
  return data.policies;
};

export const knowledgeAssembly: EpisodeAssembly<KnowledgeDb, KnowledgeDb> = {
  configNames: RETRIEVAL_CONFIG_NAMES,
  defaultConfig: DEFAULT_RETRIEVAL_CONFIG,
  kwargsRefusal: (kwargs) => {
    const overrides = RetrievalConfigKwargsSchema.safeParse(kwargs);
    return overrides.success ? null : z.prettifyError(overrides.error);
  },
  refusal: (name) => {
    try {
      resolveVariant(name);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  },
  assemble: (data, { task, retrievalConfig, retrievalConfigKwargs }) => {
    const variant = resolveVariant(retrievalConfig);
    const text = policies(data)[variant.name]!;
    return {
      agentToolkit: knowledgeTools({
        readLogAllowlist: readLogAllowlist(task),
        retrievalTools: retrievalTools(variant, retrievalConfigKwargs ?? {}, data.documents ?? []),
      }),
      policy: variant.name === GOLDEN_RETRIEVAL ? goldenPolicy(text, data.documents ?? [], task) : text,
    };
  },
  runPolicy: (data, name) => {
    const variant = resolveVariant(name);
    return variant.name === GOLDEN_RETRIEVAL ? TASK_SPECIFIC_POLICY : policies(data)[variant.name]!;
  },
};
