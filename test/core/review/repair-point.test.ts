// Where a repair forks: the earliest user turn a review blames on the simulator, and the engine's own step count
// just before it (checked against the states a real simulation passes through, tool batches and all).
import { describe, expect, it } from 'vitest';
import { text, toolCall, toolCalls } from '../../support/fake-openai.ts';
import { scriptedProvider, scriptedSpec as spec } from '../../support/scripted.ts';
import { loaded } from '../../support/domains.ts';
import { runSimulation } from '../../../src/core/runner/simulation.ts';
import { faultyUserTurn, stepBefore, uncountedOpening } from '../../../src/core/review/repair-point.ts';
import type { SimulationReview } from '../../../src/core/review/reviewer.ts';
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
  it('the step before each user turn is the step count the engine had when that turn was asked for', async () => {
    // Two tool batches (one of two calls), so a batch of tool messages counts as one step.
    scripted.userSays(text('Please list the users.'), text('And create a task for user_1.'), text('Thanks! ###STOP###'));
    scripted.agentSays(
      toolCalls([{ id: 'c1', name: 'get_users', arguments: '{}' }, { id: 'c2', name: 'get_users', arguments: '{}' }]),
      text('Here they are.'),
      toolCall('create_task', '{"user_id": "user_1", "title": "T"}', 'c3'),
      text('Created.'),
    );
    const seen = new Map<number, number>();
    const task = mock.data.tasks.find((t) => t.id === 'create_task_1')!;
    const sim = await runSimulation(spec(task), scripted.deps(mock, { onStep: (s) => void seen.set(s.trajectory.length, s.step_count) }));
    const messages: Message[] = sim.messages!;
    const userTurns = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
    expect(userTurns).toHaveLength(3);
    for (const turn of userTurns) expect(stepBefore(messages, turn, uncountedOpening(0))).toBe(seen.get(turn));
    expect(userTurns.map((turn) => stepBefore(messages, turn, 1))).toEqual([0, 4, 8]);
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
    expect(stepBefore(messages, 4, uncountedOpening(3))).toBe(1);
  });
});
