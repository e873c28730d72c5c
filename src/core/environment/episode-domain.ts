// The domain as one episode sees it: for a domain with an episode assembly, its agent toolkit and policy built
// from the run's retrieval configuration and the task; any other domain unchanged.
import type { PyValue } from '../py/index.ts';
import type { Task } from '../schemas/task.ts';
import type { AnyDomain, DomainData } from './domain.ts';

export interface RetrievalChoice {
  readonly retrievalConfig: string | null;
  readonly retrievalConfigKwargs: Readonly<Record<string, PyValue>> | null;
}

/** The configuration a run records: the domain's default when it has an assembly and none was named. */
export const effectiveRetrievalConfig = (domain: AnyDomain, retrievalConfig: string | null): string | null =>
  domain.episodeAssembly ? (retrievalConfig ?? domain.episodeAssembly.defaultConfig) : retrievalConfig;

/** Why a run cannot use this configuration on this domain, or null (the reference accepts it only where a domain does). */
export const retrievalRefusal = (domain: AnyDomain, choice: RetrievalChoice): string | null => {
  const assembly = domain.episodeAssembly;
  if (!assembly) {
    return choice.retrievalConfig === null && choice.retrievalConfigKwargs === null
      ? null
      : `The ${domain.name} domain takes no retrieval configuration`;
  }
  return assembly.refusal(choice.retrievalConfig ?? assembly.defaultConfig, choice.retrievalConfigKwargs);
};

/** The fields of a run configuration that choose the retrieval configuration. */
export interface RetrievalFields {
  readonly retrieval_config: string | null;
  readonly retrieval_config_kwargs: Readonly<Record<string, unknown>> | null;
}

/** Why a run configuration's retrieval choice cannot run on its domain, and the field to name, or null. */
export const runRetrievalRefusal = (
  domain: AnyDomain,
  config: RetrievalFields,
): { readonly field: 'retrieval_config' | 'retrieval_config_kwargs'; readonly message: string } | null => {
  const kwargs = config.retrieval_config_kwargs as Readonly<Record<string, PyValue>> | null;
  const assembly = domain.episodeAssembly;
  const kwargsIssue = kwargs === null ? null : (assembly?.kwargsRefusal?.(kwargs) ?? null);
  if (kwargsIssue !== null) return { field: 'retrieval_config_kwargs', message: kwargsIssue };
  const message = retrievalRefusal(domain, { retrievalConfig: config.retrieval_config, retrievalConfigKwargs: kwargs });
  if (message === null) return null;
  // A domain without configurations refuses kwargs given alone by naming them.
  const kwargsAlone = config.retrieval_config === null && kwargs !== null && assembly === undefined;
  return { field: kwargsAlone ? 'retrieval_config_kwargs' : 'retrieval_config', message };
};

/** Views already built, per shared data: an episode is restored at every step. */
const views = new WeakMap<DomainData, Map<string, { domain: AnyDomain; data: DomainData }>>();

export const episodeDomain = (
  domain: AnyDomain,
  data: DomainData,
  task: Task,
  choice: RetrievalChoice,
): { domain: AnyDomain; data: DomainData } => {
  const assembly = domain.episodeAssembly;
  if (!assembly) return { domain, data };
  const retrievalConfig = choice.retrievalConfig ?? assembly.defaultConfig;
  // The task is part of the key whole: its gold actions and required documents shape the view.
  const key = JSON.stringify([retrievalConfig, choice.retrievalConfigKwargs, task]);
  let cache = views.get(data);
  if (!cache) views.set(data, (cache = new Map()));
  let view = cache.get(key);
  if (!view) {
    const { agentToolkit, policy } = assembly.assemble(data, { task, retrievalConfig, retrievalConfigKwargs: choice.retrievalConfigKwargs });
    view = { domain: { ...domain, agentToolkit }, data: { ...data, policy } };
    cache.set(key, view);
  }
  return view;
};

/** The policy a run's results record. */
export const runPolicy = (domain: AnyDomain, data: DomainData, choice: RetrievalChoice, fallback: string): string => {
  const assembly = domain.episodeAssembly;
  if (!assembly) return fallback;
  return assembly.runPolicy(data, choice.retrievalConfig ?? assembly.defaultConfig, choice.retrievalConfigKwargs);
};
