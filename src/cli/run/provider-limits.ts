// `--provider-limit openai=40,gemini=20` (reference: runner/work.py parse_provider_limits): a cap on the
// simulations in flight per provider. The reference's provider of a text run is the litellm prefix of the agent
// model (`openai/gpt-4.1` → openai; a bare name has none). A tau2-edge run has one agent model, so the cap of its
// provider bounds the run's own concurrency limiter (the worker's run fan-out, or the in-process runner).
import type { RunConfig } from '../../core/schemas/run-config.ts';

export type ProviderLimits = Readonly<Record<string, number>>;

/** Parses the flag as the reference does; a cap of 0 would never start anything, so it is refused too. */
export const parseProviderLimits = (spec: string): ProviderLimits => {
  const limits: Record<string, number> = {};
  for (const part of spec.split(',')) {
    const at = part.indexOf('=');
    const name = (at < 0 ? part : part.slice(0, at)).trim();
    const value = at < 0 ? '' : part.slice(at + 1).trim();
    if (at < 0 || name === '' || !/^\d+$/.test(value)) throw new Error(`Invalid provider limit '${part}'; expected e.g. 'openai=40,gemini=20'`);
    if (Number(value) === 0) throw new Error(`Invalid provider limit '${part}': a cap of 0 would start nothing`);
    limits[name] = Number(value);
  }
  return limits;
};

/** The provider a run's simulations count against (reference: unit_provider), or null. */
export const runProvider = (config: Pick<RunConfig, 'llm_agent'>): string | null =>
  config.llm_agent.includes('/') ? config.llm_agent.slice(0, config.llm_agent.indexOf('/')) : null;

/** The run's concurrency under its provider's cap. */
export const cappedConcurrency = (config: Pick<RunConfig, 'llm_agent' | 'max_concurrency'>, limits: ProviderLimits): number => {
  const provider = runProvider(config);
  const cap = provider !== null && Object.hasOwn(limits, provider) ? limits[provider]! : Infinity;
  return Math.min(config.max_concurrency, cap);
};
