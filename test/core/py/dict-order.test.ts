// Dicts with array-index-like keys ("1008292230") keep Python's insertion order end to end (held as Maps).
// Expected texts and hashes are python3.11 outputs for the same inputs.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  dumpsPy, isIndexLikeKey, isPlainDict, isPyMap, parsePyJson, pyDictHash, pyEquals, pyFloat, pyRepr, pyStr, pyTypeName,
  sha256Hex,
} from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { pyMap } from '../../../src/core/schemas/py-types.ts';
import { dictHas } from '../../../src/core/environment/python-dict.ts';
import { pyDict, toJsonStr } from '../../../src/core/environment/serialize.ts';
import { constructModel } from '../../../src/core/environment/model.ts';
import { deepMerge } from '../../../src/core/environment/deep-merge.ts';
import { readDataFile } from './data-files.ts';

const PRODUCT =
  '{"name": "T-Shirt", "product_id": "9523456873", "variants": {"9612497925": {"item_id": "9612497925", "price": 50.88}, ' +
  '"8124970213": {"item_id": "8124970213", "price": 49.67}, "1008292230": {"item_id": "1008292230", "price": 12.0}, ' +
  '"0": {"item_id": "0", "price": 1.5}}}';
const PRODUCT_SORTED =
  '{"name": "T-Shirt", "product_id": "9523456873", "variants": {"0": {"item_id": "0", "price": 1.5}, ' +
  '"1008292230": {"item_id": "1008292230", "price": 12.0}, "8124970213": {"item_id": "8124970213", "price": 49.67}, ' +
  '"9612497925": {"item_id": "9612497925", "price": 50.88}}}';
const PRODUCT_REPR =
  "{'name': 'T-Shirt', 'product_id': '9523456873', 'variants': {'9612497925': {'item_id': '9612497925', 'price': 50.88}, " +
  "'8124970213': {'item_id': '8124970213', 'price': 49.67}, '1008292230': {'item_id': '1008292230', 'price': 12.0}, " +
  "'0': {'item_id': '0', 'price': 1.5}}}";
const PRODUCT_HASH = '723a854f886e94161a796d826630c226a4173fc38dd3d1851d4c67e74c90408a';
const PRODUCT_INDENT_2 =
  '{\n  "name": "T-Shirt",\n  "product_id": "9523456873",\n  "variants": {\n    "9612497925": {\n      "item_id": "9612497925",\n' +
  '      "price": 50.88\n    },\n    "8124970213": {\n      "item_id": "8124970213",\n      "price": 49.67\n    },\n' +
  '    "1008292230": {\n      "item_id": "1008292230",\n      "price": 12.0\n    },\n    "0": {\n      "item_id": "0",\n' +
  '      "price": 1.5\n    }\n  }\n}';

/** python3: json.dumps(json.load(open("retail/db.json"))) and the same with sort_keys=True, hashed. */
const RETAIL_DB_DUMPS_SHA = 'e986e64db2a5172946855393129aba4e9f15440c3279e9beeaeac95dd374eecb';
const RETAIL_DB_SORTED_SHA = '8c359340612f66ae5cbcb9373877b92076a0fc4a3283c71fd7da5fae2b6b3052';

const variants = (v: PyValue): Map<string, PyValue> => (v as { variants: Map<string, PyValue> }).variants;

describe('index-like keys', () => {
  it('are canonical decimal integers below 2**32 - 1, the keys JS objects reorder', () => {
    for (const k of ['0', '7', '1008292230', '4294967294']) expect(isIndexLikeKey(k)).toBe(true);
    for (const k of ['4294967295', '6086499569', '01', '-1', '1.0', '', ' 1', '1e3', 'a1']) expect(isIndexLikeKey(k)).toBe(false);
    for (const k of ['4294967295', '6086499569', '01', '-1', '1.0']) {
      const obj: Record<string, number> = { b: 1 };
      obj[k] = 2;
      expect(Object.keys(obj)).toEqual(['b', k]);
    }
  });
});

describe('parsePyJson / dumpsPy with index-like keys', () => {
  it('a dict with an index-like key becomes a Map in document order; other dicts stay plain objects', () => {
    const product = parsePyJson(PRODUCT);
    expect(isPlainDict(product)).toBe(true);
    expect(isPyMap(variants(product))).toBe(true);
    expect([...variants(product).keys()]).toEqual(['9612497925', '8124970213', '1008292230', '0']);
    expect(isPlainDict(variants(product).get('0'))).toBe(true);
  });

  it('round-trips byte for byte, with sort_keys and indent as python3 writes them', () => {
    const product = parsePyJson(PRODUCT);
    expect(dumpsPy(product)).toBe(PRODUCT);
    expect(dumpsPy(product, { sortKeys: true })).toBe(PRODUCT_SORTED);
    expect(dumpsPy(product, { indent: 2 })).toBe(PRODUCT_INDENT_2);
    expect(pyDictHash(product)).toBe(PRODUCT_HASH);
  });

  it('a duplicate key keeps its first position and its last value, as in Python', () => {
    const text = '{"z": 1, "7": 2, "a": 3, "4294967295": 4, "3": 5, "7": 6}';
    const value = parsePyJson(text);
    expect(isPyMap(value)).toBe(true);
    expect(dumpsPy(value)).toBe('{"z": 1, "7": 6, "a": 3, "4294967295": 4, "3": 5}');
    expect(pyRepr(value)).toBe("{'z': 1, '7': 6, 'a': 3, '4294967295': 4, '3': 5}");
  });

  it('keys that are not index-like keep insertion order in a plain object', () => {
    const value = parsePyJson('{"b": 1, "6086499569": 2, "-1": 3, "a": 4}');
    expect(isPlainDict(value)).toBe(true);
    expect(dumpsPy(value)).toBe('{"b": 1, "6086499569": 2, "-1": 3, "a": 4}');
  });

  it('the whole retail DB dumps exactly as python3 dumps it, in document order and sorted', () => {
    const db = parsePyJson(readDataFile('domains/retail/db.json'));
    expect(sha256Hex(dumpsPy(db))).toBe(RETAIL_DB_DUMPS_SHA);
    expect(sha256Hex(dumpsPy(db, { sortKeys: true }))).toBe(RETAIL_DB_SORTED_SHA);
  });
});

describe('str, repr, type name and equality of Map-held dicts', () => {
  it('repr and str follow insertion order', () => {
    const product = parsePyJson(PRODUCT);
    expect(pyRepr(product)).toBe(PRODUCT_REPR);
    expect(pyStr(product)).toBe(PRODUCT_REPR);
    expect(pyTypeName(variants(product))).toBe('dict');
  });

  it('a Map equals a plain object or a Map with the same items, in any order', () => {
    const m = new Map<string, PyValue>([['1', 1], ['a', pyFloat(2)]]);
    expect(pyEquals(m, { a: 2, 1: 1 })).toBe(true);
    expect(pyEquals({ a: 2, 1: 1 }, m)).toBe(true);
    expect(pyEquals(m, new Map<string, PyValue>([['a', 2], ['1', true]]))).toBe(true);
    expect(pyEquals(m, { a: 2 })).toBe(false);
    expect(pyEquals(m, { a: 2, 1: 'x' })).toBe(false);
    expect(pyEquals(m, [1, 2])).toBe(false);
  });
});

describe('environment helpers on Map-held dicts', () => {
  it('dictHas looks keys up in a Map and keeps the unhashable-key error', () => {
    const m = variants(parsePyJson(PRODUCT));
    expect(dictHas(m, '1008292230')).toBe(true);
    expect(dictHas(m, '1')).toBe(false);
    expect(dictHas(m, 1008292230)).toBe(false);
    expect(() => dictHas(m, ['x'])).toThrow("unhashable type: 'list'");
  });

  it('toJsonStr dumps a model holding a Map in insertion order, and stringifies a tool-built Map dict', () => {
    expect(toJsonStr(parsePyJson(PRODUCT))).toBe(PRODUCT);
    const built = pyDict(new Map<string, PyValue>([['9', pyFloat(1.5)], ['a', true], ['1', null]]));
    // python3: json.dumps({'9': str(1.5), 'a': str(True), '1': None})
    expect(toJsonStr(built)).toBe('{"9": "1.5", "a": "True", "1": null}');
  });

  it('pyMap accepts a Map or a plain object, yields a Map, and reports non-dicts as pydantic does', () => {
    const Variant = z.object({ item_id: z.string(), price: z.number() });
    const Product = z.object({ variants: pyMap(Variant) });
    const fromMap = Product.parse(parsePyJson('{"variants": {"5": {"item_id": "5", "price": 1}, "x": {"item_id": "x", "price": 2}}}'));
    expect([...fromMap.variants.keys()]).toEqual(['5', 'x']);
    const fromObject = Product.parse({ variants: { x: { item_id: 'x', price: 2 } } });
    expect(fromObject.variants).toBeInstanceOf(Map);
    expect(() => constructModel('Product', Product, { variants: 3 })).toThrow(
      '1 validation error for Product\nvariants\n  Input should be a valid dictionary [type=dict_type, input_value=3, input_type=int]',
    );
    expect(() =>
      constructModel('Product', Product, parsePyJson('{"variants": {"5": {"item_id": 5, "price": 1}}}')),
    ).toThrow(
      '1 validation error for Product\nvariants.5.item_id\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]',
    );
  });

  it('deepMerge merges into Map-held dicts, keeping positions and appending new keys', () => {
    const base = parsePyJson('{"products": {"9": {"name": "a", "n": 1}, "x": {"name": "b"}}, "k": 1}');
    const update = parsePyJson('{"products": {"9": {"n": 2}, "10": {"name": "c"}}}') as Record<string, PyValue>;
    const merged = deepMerge(base, update) as PyValue;
    expect(dumpsPy(merged)).toBe('{"products": {"9": {"name": "a", "n": 2}, "x": {"name": "b"}, "10": {"name": "c"}}, "k": 1}');
  });
});
