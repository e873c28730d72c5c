// Text limits count UTF-8 bytes: utf8Length agrees with TextEncoder on every kind of character (lone
// surrogates included), and textOfBytes refuses text whose characters fit but whose bytes do not.
import { describe, expect, it } from 'vitest';
import { textOfBytes, utf8Length } from '../../../src/core/schemas/text-bytes.ts';

const encoded = (text: string): number => new TextEncoder().encode(text).byteLength;

describe('text limits in UTF-8 bytes', () => {
  it('utf8Length is the length TextEncoder writes', () => {
    const samples = ['', 'plain ascii', 'é', '€', '日本語', '😀', 'a😀b', '\ud800', 'x\udc00y', '\ud83d\ud83d\ude00', '\u007f\u0080\u07ff\u0800\uffff', '€'.repeat(1000)];
    for (const text of samples) expect(utf8Length(text), JSON.stringify(text)).toBe(encoded(text));
  });

  it('textOfBytes takes text up to its bytes and refuses one byte more, whatever the character count', () => {
    const schema = textOfBytes(6);
    expect(schema.safeParse('€€').success).toBe(true);
    expect(schema.safeParse('abcdef').success).toBe(true);
    const over = schema.safeParse('€€a');
    expect(over.success).toBe(false);
    expect(over.error?.issues).toEqual([expect.objectContaining({ message: 'Too big: expected string to have <=6 bytes of UTF-8' })]);
    // A long ASCII text: one issue, from the cheap length check.
    expect(schema.safeParse('abcdefg').error?.issues).toHaveLength(1);
    expect(schema.safeParse('😀😀').success).toBe(false);
  });
});
