// Copy-on-write DB state: shared base, partial mutations, change sets and the DB verdict.
import { describe, expect, it } from 'vitest';
import { applyChanges, dbEquals, diffFromBase, freezeBase, mutateDb } from '../../../src/core/environment/db-state.ts';
import { pyFloat } from '../../../src/core/py/index.ts';

const base = () =>
  freezeBase({
    users: { a: { name: 'A', tasks: ['t1'] }, b: { name: 'B', tasks: [] as string[] } },
    tasks: { t1: { title: 'x', n: 2 } },
  });

describe('mutateDb', () => {
  it('shares untouched subtrees with the base', () => {
    const b = base();
    const { db } = mutateDb(b, (d) => {
      d.users.a.tasks.push('t2');
    });
    expect(db.users.b).toBe(b.users.b);
    expect(db.tasks).toBe(b.tasks);
    expect(b.users.a.tasks).toEqual(['t1']);
  });

  it('keeps the changes made before a tool throws', () => {
    const b = base();
    let error: unknown;
    try {
      mutateDb(b, (d) => {
        d.users.a.name = 'changed';
        throw new Error('late failure');
      });
    } catch (e) {
      error = e;
    }
    expect((error as { partialState: typeof b }).partialState.users.a.name).toBe('changed');
  });
});

describe('dbEquals (the reference hash verdict)', () => {
  it('ignores dict key order but not list order', () => {
    expect(dbEquals({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(dbEquals([1, 2], [2, 1])).toBe(false);
  });

  it('distinguishes int 2 from float 2.0, as json.dumps does', () => {
    expect(dbEquals({ n: 2 }, { n: pyFloat(2) })).toBe(false);
    expect(dbEquals({ n: pyFloat(2) }, { n: pyFloat(2) })).toBe(true);
  });

  it('distinguishes True from 1, a missing key from null', () => {
    expect(dbEquals({ n: true }, { n: 1 })).toBe(false);
    expect(dbEquals({ n: null }, {})).toBe(false);
  });

  it('agrees for two independent edits that reach the same state', () => {
    const b = base();
    const one = mutateDb(b, (d) => void (d.tasks.t1.title = 'y')).db;
    const two = mutateDb(b, (d) => void (d.tasks.t1 = { title: 'y', n: 2 })).db;
    expect(dbEquals(one, two)).toBe(true);
  });
});

describe('change sets', () => {
  it('diff then apply reproduces the state and keeps sharing', () => {
    const b = base();
    const { db } = mutateDb(b, (d) => {
      d.users.a.tasks.push('t2');
      (d.tasks as Record<string, { title: string; n: number }>).t2 = { title: 'new', n: 1 };
      delete (d.users as Record<string, unknown>).b;
    });
    const changes = diffFromBase(b, db);
    expect(changes.length).toBe(3);
    const restored = applyChanges(b, JSON.parse(JSON.stringify(changes)));
    expect(dbEquals(restored, db)).toBe(true);
    expect(restored.tasks.t1).toBe(b.tasks.t1);
  });

  it('an unchanged DB has an empty change set', () => {
    const b = base();
    expect(diffFromBase(b, b)).toEqual([]);
  });
});
