// CPython's `random` module (MT19937, int seeding, _randbelow, shuffle, sample) for reproducible draws.
import { PyError } from './errors.ts';
import { PyFloat } from './float.ts';

const N = 624;
const M = 397;

/** CPython `random.Random` for int seeds: every method draws exactly the words CPython 3.11/3.12 draws. */
export class PyRandom {
  readonly #mt = new Uint32Array(N);
  #index = N + 1;

  constructor(seed?: number | bigint) {
    this.seed(seed ?? 0);
  }

  #initGenrand(s: number): void {
    const mt = this.#mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.#index = N;
  }

  #initByArray(key: readonly number[]): void {
    const mt = this.#mt;
    this.#initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1664525)) + (key[j] as number) + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = (mt[i - 1] as number) ^ ((mt[i - 1] as number) >>> 30);
      mt[i] = (((mt[i] as number) ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  #twist(): void {
    const mt = this.#mt;
    for (let k = 0; k < N; k++) {
      const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % N] as number) & 0x7fffffff);
      mt[k] = (mt[(k + M) % N] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.#index = 0;
  }

  /** One 32-bit output of MT19937 (`genrand_uint32`). */
  #next(): number {
    if (this.#index >= N) this.#twist();
    let y = this.#mt[this.#index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.seed(n)` for an int n: the 32-bit words of abs(n), least significant first. */
  seed(n: number | bigint): void {
    if (typeof n === 'number' && !Number.isInteger(n)) {
      throw new PyError('TypeError', 'PyRandom.seed takes an int (float seeds are not supported)');
    }
    let rest = BigInt(n);
    if (rest < 0n) rest = -rest;
    const key: number[] = [];
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    this.#initByArray(key);
  }

  /** `random.random()`: 53 random bits from two draws, as a float in [0, 1). */
  random(): PyFloat {
    const a = this.#next() >>> 5;
    const b = this.#next() >>> 6;
    return new PyFloat((a * 67108864 + b) / 9007199254740992);
  }

  /** `getrandbits(k)` for k ≤ 54 as a number (exact below 2^53): the words CPython draws for the same k. */
  #bits(k: number): number {
    if (k <= 32) return k === 0 ? 0 : this.#next() >>> (32 - k);
    const low = this.#next();
    const high = this.#next() >>> (64 - k);
    return high * 4294967296 + low;
  }

  /** `random.getrandbits(k)`: k random bits, 32-bit words least significant first, the last one shifted. */
  getrandbits(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new PyError('ValueError', 'number of bits must be non-negative');
    if (k <= 32) return BigInt(this.#bits(k));
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      const word = left < 32 ? this.#next() >>> (32 - left) : this.#next();
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /** `_randbelow(n)` for 0 < n ≤ 2^53: rejection sampling on n.bit_length() bits. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 2 ** 53) {
      throw new PyError('ValueError', `randbelow needs an int 0 < n <= 2**53, got ${n}`);
    }
    const k = n.toString(2).length;
    let r = this.#bits(k);
    while (r >= n) r = this.#bits(k);
    return r;
  }

  /** `random.randrange(start, stop?, step?)` with CPython 3.11's checks and messages. */
  randrange(start: number, stop?: number | null, step = 1): number {
    const names: [string, number][] = [['arg 1', start], ['stop', stop ?? 0], ['step', step]];
    for (const [name, arg] of names) {
      if (!Number.isInteger(arg)) throw new PyError('ValueError', `non-integer ${name} for randrange()`);
    }
    if (stop === undefined || stop === null) {
      if (step !== 1) throw new PyError('TypeError', 'Missing a non-None stop argument');
      if (start > 0) return this.randbelow(start);
      throw new PyError('ValueError', 'empty range for randrange()');
    }
    const width = stop - start;
    if (step === 1) {
      if (width > 0) return start + this.randbelow(width);
      throw new PyError('ValueError', `empty range for randrange() (${start}, ${stop}, ${width})`);
    }
    if (step === 0) throw new PyError('ValueError', 'zero step for randrange()');
    const n = Math.floor((step > 0 ? width + step - 1 : width + step + 1) / step);
    if (n <= 0) throw new PyError('ValueError', 'empty range for randrange()');
    return start + step * this.randbelow(n);
  }

  /** `random.randint(a, b)`: a ≤ N ≤ b. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  /** `random.choice(seq)`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new PyError('IndexError', 'Cannot choose from an empty sequence');
    return seq[this.randbelow(seq.length)] as T;
  }

  /** `random.shuffle(x)`: in place, Fisher–Yates from the end. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const tmp = x[i] as T;
      x[i] = x[j] as T;
      x[j] = tmp;
    }
  }

  /** `random.sample(population, k)`: a pool for small populations, a set of picked indices otherwise. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) {
      throw new PyError('ValueError', 'Sample larger than population or is negative');
    }
    const result: T[] = [];
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = population.slice();
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result.push(pool[j] as T);
        pool[j] = pool[n - i - 1] as T;
      }
      return result;
    }
    const selected = new Set<number>();
    for (let i = 0; i < k; i++) {
      let j = this.randbelow(n);
      while (selected.has(j)) j = this.randbelow(n);
      selected.add(j);
      result.push(population[j] as T);
    }
    return result;
  }
}
