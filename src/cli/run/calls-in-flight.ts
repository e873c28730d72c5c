// Model calls in flight in this process, and their peak: what an in-process run reports of its concurrency, as
// the provider gate does for a run on a Worker.
import type { LlmClient } from '../../core/llm/types.ts';

export const callsInFlight = () => {
  let now = 0;
  let peak = 0;
  return {
    /** The client, its calls counted. */
    counted: (client: LlmClient): LlmClient => ({
      async generate(request) {
        peak = Math.max(peak, ++now);
        try {
          return await client.generate(request);
        } finally {
          now--;
        }
      },
    }),
    peak: (): number => peak,
  };
};
