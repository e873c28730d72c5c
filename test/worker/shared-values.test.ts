// Structurally shared reference data: the shared copy reads exactly as the parsed value, and equal parts are one
// frozen object.
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyInput } from '../../src/core/py/index.ts';
import { PyFloat } from '../../src/core/py/float.ts';
import { SharedValues } from '../../src/worker/data/shared-values.ts';

const text = '[{"id": "a", "args": {"x": 1, "y": 1.0, "z": -0.0, "w": [true, null, "s"]}}, {"id": "b", "args": {"x": 1, "y": 1.0, "z": -0.0, "w": [true, null, "s"]}}, {"id": "c", "args": {"x": 1.0, "y": 1, "z": 0, "w": [true, null, "s"]}}]';

describe('shared values', () => {
  it('read exactly as the parsed value, int/float kinds and -0.0 included', () => {
    const shared = new SharedValues().share(parsePyJson(text));
    expect(dumpsPy(shared as PyInput)).toBe(dumpsPy(parsePyJson(text) as PyInput));
  });

  it('make equal subtrees one frozen object, and tell apart what differs only in a kind', () => {
    const [a, b, c] = new SharedValues().share(parsePyJson(text)) as { args: { y: unknown; z: unknown; w: unknown } }[];
    expect(b!.args).toBe(a!.args);
    expect(c!.args).not.toBe(a!.args);
    expect(c!.args.w).toBe(a!.args.w);
    expect(a!.args.y).toBeInstanceOf(PyFloat);
    expect(c!.args.y).toBe(1);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a!.args.w)).toBe(true);
    expect(Object.isFrozen(a!.args.y)).toBe(true);
  });

  it('share equal values across calls of one table', () => {
    const table = new SharedValues();
    const first = table.share(parsePyJson(text)) as unknown[];
    const second = table.share(parsePyJson(text)) as unknown[];
    expect(second).toBe(first);
  });

  it('keep values of other classes as they are', () => {
    const map = new Map([['k', 1]]);
    const [x, y] = new SharedValues().share([{ m: map }, { m: new Map([['k', 1]]) }]);
    expect(x!.m).toBe(map);
    expect(y).not.toBe(x);
  });
});
