import { describe, it, expect } from 'vitest';
import { parsePyJson, pyDictHash, pyFloat, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { readDataFile } from './data-files.ts';

type Dict = Record<string, PyValue>;

/** Rebuilds each record of a keyed table with exactly the model's fields, in model order. */
const rekey = (table: PyValue, fields: readonly string[]): Dict => {
  const out: Dict = {};
  for (const [id, record] of Object.entries(table as Dict)) {
    const source = record as Dict;
    const model: Dict = {};
    for (const field of fields) model[field] = source[field] ?? null;
    out[id] = model;
  }
  return out;
};

describe('sha256Hex', () => {
  it('hashes the UTF-8 bytes of the text (python hashlib values)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('café 📶')).toBe('da8e9b80df0bd913eff231037dc5d3d2f99416defe640cb86247399de674857d');
  });
});

describe('pyDictHash (get_dict_hash)', () => {
  it('hashes json.dumps(sort_keys=True), so 2 and 2.0 hash differently', () => {
    expect(pyDictHash({ b: pyFloat(2), a: [1, null, 'é'] })).toBe('299378c94e6c3ae80fe9dc7c56d405d7cf0c483723966d039d70f1ecd5f43e2c');
    expect(pyDictHash({ b: 2, a: [1, null, 'é'] })).toBe('5045ba8ec1e58544c14a6674fc49966bc8b7055cdd8c3204a1a911c00a3a287c');
  });

  it('gives the reference hash of the initial mock agent DB (spec Appendix C)', () => {
    const raw = parsePyJson(readDataFile('domains/mock/db.json')) as Dict;
    const db = {
      tasks: rekey(raw.tasks ?? {}, ['task_id', 'title', 'description', 'status']),
      users: rekey(raw.users ?? {}, ['user_id', 'name', 'tasks']),
    };
    expect(pyDictHash(db)).toBe('107f83a70b7bf4f616e283b0b0b8451346fe7681173398d4498a1ec15c5fdfc6');
  });

  it('gives the reference hash of the initial mock user DB (spec Appendix C)', () => {
    const raw = parsePyJson(readDataFile('domains/mock/user_db.json')) as Dict;
    const db = { notifications: rekey(raw.notifications ?? {}, ['notification_id', 'message', 'status', 'task_id']) };
    expect(pyDictHash(db)).toBe('4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac');
  });

  it('changes when a field the model always dumps is missing', () => {
    const raw = parsePyJson(readDataFile('domains/mock/user_db.json')) as Dict;
    const db = { notifications: rekey(raw.notifications ?? {}, ['notification_id', 'message', 'status']) };
    expect(pyDictHash(db)).not.toBe('4cf3d22eed6962ba202c8738421d8a2286d2b5a0cad1372922c928be09ccbfac');
  });
});
