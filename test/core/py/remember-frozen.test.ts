// dumpsPy's rememberFrozen: the texts of deep-frozen containers are reused, and nothing that can still change is.
// Every remembered text is checked against the encoder without memory, byte for byte.
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { PyFloat, dumpsPy, pyDictHash, pyFloat, sha256Hex } from '../../../src/core/py/index.ts';
import type { DumpsOptions, PyInput, PyJsonable, PyValue } from '../../../src/core/py/index.ts';
import { freezeBase, mutateDb } from '../../../src/core/environment/db-state.ts';
import { loaded } from '../../support/domains.ts';

const OPTION_SETS: DumpsOptions[] = [{}, { sortKeys: true }, { ensureAscii: false }, { sortKeys: true, ensureAscii: false }];

/** Dumps twice with memory (the second from what the first remembered) and checks both against a plain dump. */
const expectSameText = (value: PyInput, opts: DumpsOptions = { sortKeys: true }): string => {
  const plain = dumpsPy(value, opts);
  expect(dumpsPy(value, { ...opts, rememberFrozen: true })).toBe(plain);
  expect(dumpsPy(value, { ...opts, rememberFrozen: true })).toBe(plain);
  return plain;
};

/** A deep-frozen dict whose reads are counted: a remembered text is written without reading it again. */
const countingReads = <T extends object>(target: T): { value: T; reads: () => number } => {
  let reads = 0;
  const value = new Proxy(freezeBase(target), {
    get: (t, key, receiver) => {
      reads += 1;
      return Reflect.get(t, key, receiver) as unknown;
    },
  });
  return { value, reads: () => reads };
};

type Db = Record<string, PyValue>;

describe('dumpsPy rememberFrozen', () => {
  it('reuses the text of a deep-frozen dict without reading it again, for each option set', () => {
    for (const opts of OPTION_SETS) {
      const { value, reads } = countingReads({ b: 'é', a: [1, pyFloat(2)] });
      const again = dumpsPy({ again: value }, opts);
      expectSameText(Object.freeze({ z: value, y: Object.freeze([value]) }), opts);
      const seen = reads();
      expect(dumpsPy(Object.freeze({ again: value }), { ...opts, rememberFrozen: true })).toBe(again);
      expect(reads()).toBe(seen);
    }
  });

  it('keeps the texts of different option sets apart, and ignores memory when indenting', () => {
    const value = freezeBase({ b: 'café', a: { d: 1, c: pyFloat(-0) } });
    const texts = OPTION_SETS.map((opts) => expectSameText(value, opts));
    expect(new Set(texts).size).toBe(4);
    expect(dumpsPy(value, { indent: 2, rememberFrozen: true })).toBe(dumpsPy(value, { indent: 2 }));
    expect(dumpsPy(Object.freeze({ inner: value }), { indent: 2, rememberFrozen: true })).toBe(dumpsPy({ inner: value }, { indent: 2 }));
  });

  it('never remembers a frozen dict holding a mutable child: a change of the child shows', () => {
    const child: Db = { n: 1 };
    const parent = Object.freeze({ child, list: Object.freeze([child]) });
    expectSameText(parent);
    child.n = 2;
    expect(expectSameText(parent)).toBe('{"child": {"n": 2}, "list": [{"n": 2}]}');
  });

  it('never remembers a frozen dict holding an empty mutable list or dict: items added later show', () => {
    const list: PyValue[] = [];
    const dict: Db = {};
    const parent = Object.freeze({ dict, list });
    expectSameText(parent);
    list.push(1);
    dict.k = 'v';
    expect(expectSameText(parent)).toBe('{"dict": {"k": "v"}, "list": [1]}');
  });

  it('never remembers a Map that is frozen but still settable; one frozen by immer is remembered', () => {
    const settable = Object.freeze(new Map<string, PyValue>([['1', 'a']]));
    const parent = Object.freeze({ m: settable });
    expectSameText(parent);
    settable.set('2', 'b');
    expect(expectSameText(parent)).toBe('{"m": {"1": "a", "2": "b"}}');

    const { value, reads } = countingReads({ m: freezeBase(new Map<string, PyValue>([['1', 'a']])) });
    expectSameText(Object.freeze({ wrapper: value }));
    const seen = reads();
    expect(dumpsPy(Object.freeze({ again: value }), { sortKeys: true, rememberFrozen: true })).toBe('{"again": {"m": {"1": "a"}}}');
    expect(reads()).toBe(seen);
  });

  it('never remembers a value written through toPyJson, nor a dict holding one', () => {
    let calls = 0;
    const stamp: PyJsonable = Object.freeze({ toPyJson: () => `call ${++calls}` });
    const parent = Object.freeze({ stamp, list: Object.freeze([stamp]) });
    expect(dumpsPy(parent, { rememberFrozen: true })).toBe('{"stamp": "call 1", "list": ["call 2"]}');
    expect(dumpsPy(parent, { rememberFrozen: true })).toBe('{"stamp": "call 3", "list": ["call 4"]}');
  });

  it('a float is immutable: a PyFloat is frozen, and a dict holding an unfrozen one is not remembered', () => {
    const x = pyFloat(1.5);
    expect(Object.isFrozen(x)).toBe(true);
    expect(() => {
      (x as { value: number }).value = 2;
    }).toThrow(TypeError);
    const loose = Object.create(PyFloat.prototype, { value: { value: 1.5, writable: true } }) as { value: number };
    const parent = Object.freeze({ x, loose });
    expect(expectSameText(parent)).toBe('{"loose": 1.5, "x": 1.5}');
    loose.value = 2.5;
    expect(expectSameText(parent)).toBe('{"loose": 2.5, "x": 1.5}');
  });

  it('a cycle through frozen containers is still refused', () => {
    const list: PyValue[] = [];
    const parent = { list };
    list.push(parent);
    Object.freeze(list);
    Object.freeze(parent);
    expect(() => dumpsPy(parent, { rememberFrozen: true })).toThrow('Circular reference detected');
    expect(() => dumpsPy(parent, { rememberFrozen: true })).toThrow('Circular reference detected');
  });
});

describe('rememberFrozen on the real DBs, before and after copy-on-write changes', () => {
  it('airline: the text equals the plain encoder after every change, floats -0.0, NaN and inf included', async () => {
    let db = (await loaded('airline')).data.db as { reservations: Map<string, Db>; users: Record<string, Db> };
    expectSameText(db as unknown as PyInput);
    const ids = [...db.reservations.keys()];
    const changes: ((d: typeof db) => void)[] = [
      (d) => void (d.reservations.get(ids[0]!)!.total_baggages = 9),
      (d) => void (d.reservations.get(ids[1]!)!.payment_history as PyValue[]).push({ payment_id: 'x', amount: pyFloat(-0) }),
      (d) => void d.reservations.set('NEW001', { reservation_id: 'NEW001', price: pyFloat(NaN), refund: pyFloat(-Infinity) }),
      (d) => void d.reservations.delete(ids[2]!),
      (d) => void (d.users[Object.keys(d.users)[0]!]!.membership = 'silver'),
    ];
    for (const change of changes) {
      db = mutateDb(db, change).db;
      expectSameText(db as unknown as PyInput);
    }
    expectSameText(db as unknown as PyInput, { ensureAscii: false });
    expect(dumpsPy(db.reservations.get('NEW001') as PyValue, { rememberFrozen: true })).toBe(
      '{"reservation_id": "NEW001", "price": NaN, "refund": -Infinity}',
    );
  });

  it('retail (Maps of Maps): the hash equals the plain text hashed in JavaScript after every change', async () => {
    let db = (await loaded('retail')).data.db as { products: Map<string, { variants: Map<string, Db> }>; orders: Record<string, Db> };
    const plainHash = (): string => bytesToHex(sha256(new TextEncoder().encode(dumpsPy(db as unknown as PyInput, { sortKeys: true }))));
    expect(pyDictHash(db as unknown as PyInput)).toBe(plainHash());
    const product = [...db.products.keys()][0]!;
    const variant = [...db.products.get(product)!.variants.keys()][0]!;
    const order = Object.keys(db.orders)[0]!;
    const changes: ((d: typeof db) => void)[] = [
      (d) => void (d.products.get(product)!.variants.get(variant)!.price = pyFloat(0.1 + 0.2)),
      (d) => void (d.orders[order]!.status = 'cancelled'),
      (d) => void d.products.get(product)!.variants.set('0', { item_id: '0', available: false }),
    ];
    for (const change of changes) {
      db = mutateDb(db, change).db;
      expect(pyDictHash(db as unknown as PyInput)).toBe(plainHash());
    }
  });
});

describe('sha256Hex', () => {
  it('agrees with the JavaScript SHA-256 on every kind of text, a lone surrogate written as U+FFFD', () => {
    const texts = ['', 'abc', 'café 📶', '\ud800', 'x\udc00y', 'a'.repeat(1 << 20) + '€'];
    for (const text of texts) expect(sha256Hex(text)).toBe(bytesToHex(sha256(new TextEncoder().encode(text))));
    expect(sha256Hex('\ud800')).toBe(sha256Hex('\ufffd'));
  });
});
