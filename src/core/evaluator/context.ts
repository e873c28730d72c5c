// What evaluation needs: fresh environments of the task's domain and, for NL assertions, a judge model.
import type { AnyDomain, DomainData } from '../environment/domain.ts';
import { Environment } from '../environment/environment.ts';
import type { ModelConfig } from '../agents/participant.ts';
import type { NLAssertionCheck } from '../schemas/simulation.ts';

export interface EvaluationContext {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly solo: boolean;
  /** Live evaluation replays strictly; re-grading recorded trajectories only warns on output drift. */
  readonly strictReplay: boolean;
  readonly now: () => string;
  /** The LLM judge for NL assertions, or recorded verdicts to reuse when re-grading without a judge. */
  readonly judge: ModelConfig | { readonly recorded: readonly NLAssertionCheck[] | null };
  readonly onReplayMismatch?: (detail: string) => void;
  readonly onUnexpectedToolError?: (toolName: string, error: unknown) => void;
}

export const freshEnvironment = (ctx: Pick<EvaluationContext, 'domain' | 'data' | 'now' | 'onUnexpectedToolError'>, solo: boolean): Environment =>
  new Environment(ctx.domain, ctx.data, {
    solo,
    now: ctx.now,
    onUnexpectedToolError: ctx.onUnexpectedToolError,
  });
