// constructModel: pydantic's ValidationError text for models that forbid extra keys (verified with pydantic 2.13,
// whose documentation URL differs only in the version the engine pins).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { constructModel, inputRepr, pyEnum } from '../../../src/core/environment/model.ts';

const M = z.strictObject({ a: z.number().default(1) });

describe('constructModel', () => {
  it('reports each extra key of an extra="forbid" model as extra_forbidden, with its value', () => {
    expect(() => constructModel('M', M, { a: 2, colour: 'red', n: [1] })).toThrow(
      "2 validation errors for M\ncolour\n  Extra inputs are not permitted [type=extra_forbidden, input_value='red', input_type=str]\n" +
        '    For further information visit https://errors.pydantic.dev/2.12/v/extra_forbidden\n' +
        'n\n  Extra inputs are not permitted [type=extra_forbidden, input_value=[1], input_type=list]\n' +
        '    For further information visit https://errors.pydantic.dev/2.12/v/extra_forbidden',
    );
  });

  it('a str-Enum field reports type=enum, a Literal field literal_error', () => {
    const E = z.strictObject({ e: pyEnum(['internet', 'broken']), l: z.enum(['a', 'b']).default('a') });
    expect(() => constructModel('E', E, { e: 'x', l: 'c' })).toThrow(
      "2 validation errors for E\ne\n  Input should be 'internet' or 'broken' [type=enum, input_value='x', input_type=str]\n" +
        '    For further information visit https://errors.pydantic.dev/2.12/v/enum\n' +
        "l\n  Input should be 'a' or 'b' [type=literal_error, input_value='c', input_type=str]\n" +
        '    For further information visit https://errors.pydantic.dev/2.12/v/literal_error',
    );
  });

  it('shortens an input whose repr is longer than 50 bytes to its first 25 and last 24 bytes, as pydantic does', () => {
    // Expected texts from pydantic 2.13 (`M(x='a' * n)` for an int field, and a dict input of a list field).
    expect(inputRepr('a'.repeat(48))).toBe(`'${'a'.repeat(48)}'`);
    expect(inputRepr('a'.repeat(49))).toBe(`'${'a'.repeat(24)}...${'a'.repeat(23)}'`);
    expect(inputRepr('é'.repeat(60))).toBe(`'${'é'.repeat(12)}...${'é'.repeat(11)}'`);
    const L = z.object({ passengers: z.array(z.string()) });
    expect(() => constructModel('L', L, { passengers: { first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' } })).toThrow(
      "1 validation error for L\npassengers\n  Input should be a valid list [type=list_type, input_value={'first_name': 'Mia', 'la...i', 'dob': '1990-04-05'}, input_type=dict]\n" +
        '    For further information visit https://errors.pydantic.dev/2.12/v/list_type',
    );
  });

  it('returns the validated model with defaults filled in', () => {
    expect(constructModel('M', M, {})).toEqual({ a: 1 });
  });
});
