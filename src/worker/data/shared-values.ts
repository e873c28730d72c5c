// Structural sharing of read-only reference data: equal subtrees (and equal strings) become one frozen value.
// Task sets are composed from a few atomic pieces, so most of their subtrees repeat: telecom's 2,285 tasks
// parse to about 13 MB of heap and share down to about 2 MB. Values are compared by content, never identity,
// so the shared copy reads exactly as the parsed one.
import { isPyFloat, PyFloat } from '../../core/py/float.ts';

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** A number's key: the integral/non-integral distinction is in the value, -0 and NaN are told apart. */
const numberKey = (n: number): string => (Object.is(n, -0) ? '-0' : String(n));

/**
 * A table of canonical values. Sharing a value returns its canonical copy, deep-frozen; values shared through the
 * same table share their equal parts across calls (telecom and telecom-workflow read one task file). Keys are
 * built from the ids of already-canonical children, so the table stays small however large the values.
 */
export class SharedValues {
  private readonly strings = new Map<string, { readonly value: string; readonly id: number }>();
  private readonly floats = new Map<string, PyFloat>();
  private readonly nodes = new Map<string, object>();
  private readonly nodeIds = new Map<object, number>();
  private unshared = 0;

  share<T>(value: T): T {
    return this.canonical(value).value as T;
  }

  private stringEntry(value: string): { readonly value: string; readonly id: number } {
    let entry = this.strings.get(value);
    if (entry === undefined) {
      entry = { value, id: this.strings.size };
      this.strings.set(value, entry);
    }
    return entry;
  }

  /** The canonical copy of `value` and the key that names its content. */
  private canonical(value: unknown): { value: unknown; key: string } {
    if (typeof value === 'string') {
      const entry = this.stringEntry(value);
      return { value: entry.value, key: `s${entry.id}` };
    }
    if (typeof value === 'number') return { value, key: `n${numberKey(value)}` };
    if (typeof value === 'boolean' || value === null || value === undefined) return { value, key: String(value) };
    if (isPyFloat(value)) {
      const key = `f${numberKey(value.value)}`;
      let float = this.floats.get(key);
      if (float === undefined) {
        float = Object.freeze(new PyFloat(value.value));
        this.floats.set(key, float);
      }
      return { value: float, key };
    }
    if (typeof value !== 'object' || !(Array.isArray(value) || isPlainObject(value))) {
      // Anything else (a Map, a class instance) is kept as it is and never merged with another value.
      return { value, key: `u${this.unshared++}` };
    }
    const known = this.nodeIds.get(value);
    if (known !== undefined) return { value, key: `o${known}` };
    const parts: string[] = [];
    let copy: unknown[] | Record<string, unknown>;
    if (Array.isArray(value)) {
      copy = value.map((item) => {
        const child = this.canonical(item);
        parts.push(child.key);
        return child.value;
      });
      parts.unshift('[');
    } else {
      const record: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
      for (const [name, item] of Object.entries(value)) {
        const child = this.canonical(item);
        const canonicalName = this.stringEntry(name);
        record[canonicalName.value] = child.value;
        parts.push(`${canonicalName.id}:${child.key}`);
      }
      copy = record;
      parts.unshift(Object.getPrototypeOf(value) === null ? '{0' : '{');
    }
    const structure = parts.join(',');
    let node = this.nodes.get(structure);
    if (node === undefined) {
      node = Object.freeze(copy);
      this.nodes.set(structure, node);
      this.nodeIds.set(node, this.nodeIds.size);
    }
    return { value: node, key: `o${this.nodeIds.get(node)!}` };
  }
}
