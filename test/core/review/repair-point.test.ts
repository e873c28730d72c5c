// Where a repair forks: the earliest user turn a review blames on the simulator, and the step a fork of the
// recorded simulation waits for that turn in (checked by forking a real simulation there).
import { describe, expect, it } from 'vitest';
import { text, toolCall, toolCalls } from '../../support/fake-openai.ts';
import { scriptedProvider, scriptedSpec as spec } from '../../support/scripted.ts';
import { loaded } from '../../support/domains.ts';
import { runSimulation } from '../../../src/core/runner/simulation.ts';
import { forkEpisode } from '../../../src/core/episode/fork.ts';
import { faultyUserTurn, stepBefore, uncountedOpening } from '../../../src/core/review/repair-point.ts';
import type { SimulationReview } from '../../../src/core/review/reviewer.ts';
import { statedUserErrors } from '../../../src/core/review/review-response.ts';
import type { UserOnlyReviewError } from '../../../src/core/schemas/review.ts';
import type { Message } from '../../../src/core/schemas/message.ts';

const scripted = scriptedProvider();
const mock = await loaded('mock');

const userError = (turn: number | null, severity: 'minor' | null = null): UserOnlyReviewError => ({
  turn_idx: turn, tick_start: null, tick_end: null, error_type: 'content_error', error_tags: [], severity, reasoning: 'r', user_message: null, correct_behavior: null,
});
const userReview = (...errors: UserOnlyReviewError[]): SimulationReview => ({
  mode: 'user',
  review: { summary: '', user_error: errors.length > 0, critical_user_error: false, has_errors: errors.length > 0, errors, cost: null },
});

describe('the repair point', () => {
  it('the step before each user turn is the one a fork at it waits for that turn in, tool batches and all', async () => {
    // Two tool batches (one of two calls): tool results belong to the step of the message that called them.
    scripted.userSays(text('Please list the users.'), text('And create a task for user_1.'), text('Thanks! ###STOP###'));
    scripted.agentSays(
      toolCalls([{ id: 'c1', name: 'get_users', arguments: '{}' }, { id: 'c2', name: 'get_users', arguments: '{}' }]),
      text('Here they are.'),
      toolCall('create_task', '{"user_id": "user_1", "title": "T"}', 'c3'),
      text('Created.'),
    );
    const task = mock.data.tasks.find((t) => t.id === 'create_task_1')!;
    const deps = scripted.deps(mock);
    const sim = await runSimulation(spec(task), deps);
    const messages: Message[] = sim.messages!;
    const userTurns = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    const steps = userTurns.map((turn) => stepBefore(messages, turn, uncountedOpening(0, false)));
    expect(steps).toEqual([0, 3, 6]);
    for (const [i, turn] of userTurns.entries()) {
      const forked = await forkEpisode({ ...spec(task), simulationId: `fork-${i}` }, deps, messages, steps[i]!);
      expect(forked.kind).toBe('forked');
      if (forked.kind !== 'forked') continue;
      expect(forked.live.pending).toBe('user');
      expect(forked.live.state.trajectory).toEqual(messages.slice(0, turn));
    }
  });

  it('the earliest blamed user turn; minor errors, errors without a turn, and turns that are not the user\'s name none', () => {
    const messages = [
      { role: 'assistant' }, { role: 'user' }, { role: 'assistant' }, { role: 'user' },
    ] as unknown as Message[];
    expect(faultyUserTurn(userReview(userError(3), userError(1)), messages)).toBe(1);
    expect(faultyUserTurn(userReview(userError(1, 'minor'), userError(3)), messages)).toBe(3);
    expect(faultyUserTurn(userReview(userError(null), userError(-1), userError(2), userError(9)), messages)).toBeNull();
    expect(faultyUserTurn(userReview(), messages)).toBeNull();
  });

  it("a user-only review's answer names the turns, severities as stated: critical_* counts, minor does not, an unreadable answer names none", () => {
    const messages = [{ role: 'assistant' }, { role: 'user' }, { role: 'assistant' }, { role: 'user' }] as unknown as Message[];
    const answered = (answer: string): SimulationReview => ({ ...userReview(userError(-1)), answer } as SimulationReview);
    const stated = (...errors: object[]) => answered(`\`\`\`json\n${JSON.stringify({ summary: 's', errors })}\n\`\`\``);
    expect(faultyUserTurn(stated({ turn_idx: 3, severity: 'critical_hindered' }, { turn_idx: 1, severity: 'minor' }), messages)).toBe(3);
    expect(faultyUserTurn(stated({ turn_idx: 1, severity: 'critical_helped' }), messages)).toBe(1);
    expect(faultyUserTurn(stated({ turn_idx: '1' }, { severity: 'critical_hindered' }), messages)).toBeNull();
    expect(faultyUserTurn(answered('not json'), messages)).toBeNull();
    expect(statedUserErrors('{"errors": [{"turn_idx": 2, "severity": "critical"}, 7]}')).toEqual([{ turn_idx: 2, severity: 'critical' }]);
  });

  it('a full review blames the user only through its user-sourced errors', () => {
    const messages = [{ role: 'assistant' }, { role: 'user' }, { role: 'assistant' }] as unknown as Message[];
    const error = (source: 'agent' | 'user', turn: number) => ({
      source, error_type: null, error_tags: [], severity: null, turn_idx: turn, tick_start: null, tick_end: null, reasoning: 'r', correct_behavior: null,
    });
    const full = (errors: ReturnType<typeof error>[]): SimulationReview => ({
      mode: 'full',
      review: { summary: '', agent_error: false, user_error: false, critical_user_error: false, has_errors: true, errors, cost: null },
      auth: null,
    });
    expect(faultyUserTurn(full([error('agent', 1)]), messages)).toBeNull();
    expect(faultyUserTurn(full([error('agent', 1), error('user', 1)]), messages)).toBe(1);
  });

  it('a task with message history: none of its messages is a step', () => {
    const messages = [{ role: 'user' }, { role: 'assistant' }, { role: 'user' }, { role: 'assistant' }, { role: 'user' }] as unknown as Message[];
    expect(stepBefore(messages, 4, uncountedOpening(3, false))).toBe(1);
    expect(uncountedOpening(0, true)).toBe(0);
  });
});
