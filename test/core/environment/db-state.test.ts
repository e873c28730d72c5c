// Copy-on-write DB state: shared base, partial mutations, change sets and the DB verdict.
import { describe, expect, it } from 'vitest';
import { applyChanges, dbEquals, diffFromBase, freezeBase, mutateDb } from '../../../src/core/environment/db-state.ts';
import { dumpsPy, parsePyJson, pyFloat } from '../../../src/core/py/index.ts';
import type { PyFloat, PyValue } from '../../../src/core/py/index.ts';

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

  it('a key removed and another added (same size) is a removal and an addition; a moved key records the whole dict', () => {
    const b = base();
    const { db } = mutateDb(b, (d) => {
      delete (d.users as Record<string, unknown>).b;
      (d.users as Record<string, unknown>).c = { name: 'C', tasks: [] };
    });
    expect(Object.keys(db.users)).toHaveLength(Object.keys(b.users).length);
    expect(diffFromBase(b, db)).toEqual([
      { path: ['users', 'b'], removed: true },
      { path: ['users', 'c'], value: { name: 'C', tasks: [] } },
    ]);
    const { db: moved } = mutateDb(b, (d) => {
      const a = d.users.a;
      delete (d.users as Record<string, unknown>).a;
      (d.users as Record<string, unknown>).a = a;
    });
    expect(diffFromBase(b, moved)).toEqual([{ path: ['users'], value: moved.users }]);
  });

  it('a change set made in this process restores the very state it was taken from; a persisted copy an equal one', () => {
    const b = base();
    const { db } = mutateDb(b, (d) => void d.users.a.tasks.push('t2'));
    const changes = diffFromBase(b, db);
    expect(applyChanges(b, changes)).toBe(db);
    const rebuilt = applyChanges(b, JSON.parse(JSON.stringify(changes)) as typeof changes);
    expect(rebuilt).not.toBe(db);
    expect(dbEquals(rebuilt, db)).toBe(true);
  });

  it('a change set applied to another base is applied to it, not answered with the state it was taken from', () => {
    const b = base();
    const { db } = mutateDb(b, (d) => void d.users.a.tasks.push('t2'));
    const changes = diffFromBase(b, db);
    const other = freezeBase({ ...base(), tasks: { t1: { title: 'other', n: 3 } } });
    const restored = applyChanges(other, changes);
    expect(restored.tasks).toBe(other.tasks);
    expect(restored.users.a.tasks).toEqual(['t1', 't2']);
  });

  it('a change set of a state that is not frozen is re-applied: a later edit of that state does not leak in', () => {
    const b = base();
    const loose = { ...b, tasks: { t1: { title: 'y', n: 2 } } };
    const changes = diffFromBase(b, loose);
    loose.tasks = { t1: { title: 'z', n: 9 } };
    expect(applyChanges(b, changes).tasks.t1.title).toBe('y');
  });

  it('an unchanged DB has an empty change set', () => {
    const b = base();
    expect(diffFromBase(b, b)).toEqual([]);
  });
});

describe('dicts held as Maps (index-like keys)', () => {
  type Variant = { item_id: string; price: PyFloat; available: boolean };
  type Db = { products: Map<string, { name: string; variants: Map<string, Variant> }> };
  const PRODUCTS =
    '{"products": {"9523456873": {"name": "T-Shirt", "variants": {"9612497925": {"item_id": "9612497925", "price": 50.88, ' +
    '"available": true}, "1008292230": {"item_id": "1008292230", "price": 12.0, "available": false}}}, ' +
    '"1656367028": {"name": "Keyboard", "variants": {"1151293680": {"item_id": "1151293680", "price": 272.33, "available": true}}}}}';
  const mapBase = (): Db => freezeBase(parsePyJson(PRODUCTS) as unknown as Db);
  const persist = (v: unknown): unknown => parsePyJson(dumpsPy(v as PyValue));

  it('the base is frozen: a Map cannot be changed outside a draft', () => {
    const b = mapBase();
    expect(() => b.products.delete('1656367028')).toThrow();
  });

  it('copy-on-write through Maps keeps untouched entries shared and the base intact', () => {
    const b = mapBase();
    const { db } = mutateDb(b, (d) => {
      d.products.get('9523456873')!.variants.get('1008292230')!.available = true;
    });
    expect(db.products.get('1656367028')).toBe(b.products.get('1656367028'));
    expect(db.products.get('9523456873')!.variants.get('9612497925')).toBe(b.products.get('9523456873')!.variants.get('9612497925'));
    expect(b.products.get('9523456873')!.variants.get('1008292230')!.available).toBe(false);
    expect(db.products).toBeInstanceOf(Map);
    expect([...db.products.keys()]).toEqual(['9523456873', '1656367028']);
  });

  it('diff records paths through Map keys; a persisted change set restores the same state and key order', () => {
    const b = mapBase();
    const { db } = mutateDb(b, (d) => {
      d.products.get('9523456873')!.variants.get('1008292230')!.price = pyFloat(13.5);
      d.products.get('1656367028')!.variants.set('1', { item_id: '1', price: pyFloat(2), available: true });
      d.products.delete('9523456873');
      d.products.set('9523456873', { name: 'again', variants: new Map() });
    });
    const changes = diffFromBase(b, db);
    const restored = applyChanges(b, persist(changes) as typeof changes);
    expect(dbEquals(restored, db)).toBe(true);
    expect(dumpsPy(restored as unknown as PyValue)).toBe(dumpsPy(db as unknown as PyValue));
    expect([...restored.products.keys()]).toEqual(['1656367028', '9523456873']);
  });

  it('a small edit inside a Map yields a change at that path only', () => {
    const b = mapBase();
    const { db } = mutateDb(b, (d) => {
      d.products.get('1656367028')!.variants.get('1151293680')!.available = false;
    });
    const changes = diffFromBase(b, db);
    expect(changes).toEqual([{ path: ['products', '1656367028', 'variants', '1151293680', 'available'], value: false }]);
    const restored = applyChanges(b, persist(changes) as typeof changes);
    expect(restored.products.get('9523456873')).toBe(b.products.get('9523456873'));
    expect(dbEquals(restored, db)).toBe(true);
  });

  it('the verdict treats a Map and a plain object with the same items as equal, and sees value changes', () => {
    const b = mapBase();
    const plain = { products: Object.fromEntries(b.products) };
    expect(dbEquals(b, plain)).toBe(true);
    const { db } = mutateDb(b, (d) => {
      d.products.get('1656367028')!.variants.get('1151293680')!.price = pyFloat(272.34);
    });
    expect(dbEquals(b, db)).toBe(false);
  });
});
