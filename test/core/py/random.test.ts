import { describe, it, expect } from 'vitest';
import { PyRandom } from '../../../src/core/py/index.ts';
import { raised } from '../../support/py.ts';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

const seeded = (seed: number | bigint): PyRandom => {
  const rng = new PyRandom();
  rng.seed(seed);
  return rng;
};

// Expected values: python3.11 `random.Random()` with the same seed and calls.
describe('PyRandom seeding and randint', () => {
  it('seed 300 gives the reference trial seeds (spec Appendix D)', () => {
    const rng = seeded(300);
    expect(range(8).map(() => rng.randint(0, 1_000_000))).toEqual([626729, 373753, 361454, 1567, 514337, 363271, 554706, 863145]);
  });

  it('seed 42 gives 670487, 116739, 26225, 777572', () => {
    const rng = seeded(42);
    expect(range(4).map(() => rng.randint(0, 1_000_000))).toEqual([670487, 116739, 26225, 777572]);
  });

  it('seeds with every 32-bit word of a big int', () => {
    const rng = seeded(2n ** 100n + 5n);
    expect(range(10).map(() => rng.randint(1, 6))).toEqual([6, 4, 4, 1, 5, 4, 4, 5, 4, 1]);
  });

  it('seeds with abs(n), so -7 and 7 give the same draws', () => {
    const a = seeded(-7);
    const b = seeded(7);
    const draws = (r: PyRandom): number[] => range(10).map(() => r.randint(1, 6));
    expect(draws(a)).toEqual([3, 2, 4, 6, 1, 1, 5, 1, 3, 5]);
    expect(draws(b)).toEqual([3, 2, 4, 6, 1, 1, 5, 1, 3, 5]);
  });

  it('seed 0 is a one-word key like any other', () => {
    const rng = seeded(0);
    expect(range(10).map(() => rng.randint(1, 6))).toEqual([4, 4, 1, 3, 5, 4, 4, 3, 4, 3]);
  });

  it('re-seeding restarts the sequence', () => {
    const rng = seeded(300);
    rng.randint(0, 10);
    rng.seed(300);
    expect(rng.randint(0, 1_000_000)).toBe(626729);
  });
});

describe('PyRandom draws', () => {
  it('random() builds 53-bit floats from two words', () => {
    const rng = seeded(7);
    expect(range(5).map(() => String(rng.random()))).toEqual([
      '0.32383276483316237', '0.15084917392450192', '0.6509344730398537', '0.07243628666754276', '0.5358820043066892',
    ]);
  });

  it('getrandbits(k) consumes whole words, least significant first, for any k', () => {
    const rng = seeded(7);
    expect([0, 1, 31, 32, 33, 53, 64, 100].map((k) => rng.getrandbits(k).toString())).toEqual([
      '0', '0', '2035525362', '647892279', '5990721294', '652444394356688', '9885278224986867748',
      '46173223350539896994877990929',
    ]);
  });

  it('randrange handles start/stop/step, negative steps and ranges above 2^32', () => {
    const rng = seeded(11);
    expect([
      rng.randrange(10), rng.randrange(5, 15), rng.randrange(0, 100, 7), rng.randrange(100, 0, -3),
      rng.randrange(-50, -10), rng.randrange(2 ** 40), rng.randrange(2 ** 53),
    ]).toEqual([7, 13, 91, 13, -22, 419134626354, 8570587962962370]);
  });

  it('choice picks with _randbelow(len)', () => {
    const rng = seeded(5);
    expect(range(10).map(() => rng.choice([...'abcdefghij']))).toEqual(['j', 'e', 'f', 'i', 'a', 'h', 'd', 'a', 'c', 'b']);
  });

  it('shuffle permutes in place like CPython', () => {
    const rng = seeded(5);
    const x = range(10);
    rng.shuffle(x);
    const y = range(30);
    rng.shuffle(y);
    expect(x).toEqual([2, 3, 1, 0, 8, 7, 6, 5, 4, 9]);
    expect(y).toEqual([27, 8, 29, 14, 21, 25, 9, 19, 10, 28, 24, 16, 22, 2, 4, 13, 6, 0, 23, 18, 26, 17, 12, 7, 15, 11, 3, 5, 1, 20]);
  });

  it('sample uses the pool for small populations and a set of indices for large ones', () => {
    const rng = seeded(9);
    const population10 = range(10);
    expect(rng.sample(population10, 5)).toEqual([7, 5, 4, 1, 6]);
    expect(population10).toEqual(range(10));
    expect(rng.sample(range(100), 5)).toEqual([86, 0, 43, 64, 59]);
    expect(rng.sample(range(200), 50)).toEqual([
      154, 20, 85, 141, 157, 179, 10, 186, 97, 43, 180, 115, 185, 108, 40, 190, 60, 13, 28, 33, 129, 151, 16, 176, 98,
      26, 74, 52, 57, 107, 22, 68, 53, 101, 71, 87, 11, 51, 1, 105, 14, 96, 125, 35, 6, 183, 192, 181, 0, 31,
    ]);
    expect(rng.sample(range(1000), 50)).toEqual([
      782, 592, 202, 916, 872, 207, 338, 8, 913, 85, 136, 552, 939, 17, 512, 86, 586, 508, 550, 943, 430, 70, 407, 196,
      654, 783, 95, 717, 593, 148, 176, 962, 623, 736, 981, 42, 55, 276, 568, 699, 620, 152, 763, 274, 754, 589, 35,
      124, 889, 722,
    ]);
    expect(rng.sample(range(3), 3)).toEqual([1, 0, 2]);
    expect(rng.sample(range(3), 0)).toEqual([]);
  });

  it("raises CPython's errors for empty or invalid ranges", () => {
    const rng = seeded(1);
    expect(raised(() => rng.choice([]))).toBe('IndexError: Cannot choose from an empty sequence');
    expect(raised(() => rng.randrange(0))).toBe('ValueError: empty range for randrange()');
    expect(raised(() => rng.randint(5, 3))).toBe('ValueError: empty range for randrange() (5, 4, -1)');
    expect(raised(() => rng.randrange(0, 10, 0))).toBe('ValueError: zero step for randrange()');
    expect(raised(() => rng.sample([1, 2], 3))).toBe('ValueError: Sample larger than population or is negative');
    expect(raised(() => rng.getrandbits(-1))).toBe('ValueError: number of bits must be non-negative');
  });
});
