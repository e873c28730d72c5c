// The reference's whole-simulation retry rule, one decision for both engines (the in-process runner's
// runWithRetry and the episode Durable Object): after a failed attempt, the episode starts over with the same
// seed, or ends as an infrastructure error.

export interface FailedAttempt {
  /** The failed attempt's number, from 1. */
  readonly attempt: number;
  /** Retries after the first attempt (reference default 3, i.e. 4 attempts). */
  readonly maxRetries: number;
  /** The provider refused: another attempt would only repeat it (retries are for failures that may pass). */
  readonly refused: boolean;
  /** No attempt may follow: the run was stopped, or an external participant would see its conversation start over. */
  readonly stopped: boolean;
}

/** Whether another attempt follows the failed one. */
export const retriesAfter = ({ attempt, maxRetries, refused, stopped }: FailedAttempt): boolean => !refused && !stopped && attempt <= maxRetries;
