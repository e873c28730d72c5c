import { describe, it, expect } from 'vitest';
import { hasNonSpace, splitlines, textwrapIndent } from '../../../src/core/py/index.ts';

// [text, python3.11 textwrap.indent(text, '\t'), text.splitlines(), text.splitlines(True)]
const CASES: [string, string, string[], string[]][] = [
  ['a\nb\n', '\ta\n\tb\n', ['a', 'b'], ['a\n', 'b\n']],
  ['line1\n\nline3', '\tline1\n\n\tline3', ['line1', '', 'line3'], ['line1\n', '\n', 'line3']],
  ['  \n\tx\n \t \n', '  \n\t\tx\n \t \n', ['  ', '\tx', ' \t '], ['  \n', '\tx\n', ' \t \n']],
  [
    'one\r\ntwo\rthree\u000bfour\ffive\u001csix\u0085seven\u2028eight\u2029nine',
    '\tone\r\n\ttwo\r\tthree\u000b\tfour\f\tfive\u001c\tsix\u0085\tseven\u2028\teight\u2029\tnine',
    ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
    ['one\r\n', 'two\r', 'three\u000b', 'four\f', 'five\u001c', 'six\u0085', 'seven\u2028', 'eight\u2029', 'nine'],
  ],
  ['', '', [], []],
  ['\n\n', '\n\n', ['', ''], ['\n', '\n']],
  ['no newline', '\tno newline', ['no newline'], ['no newline']],
  ['trailing spaces   \n   \n', '\ttrailing spaces   \n   \n', ['trailing spaces   ', '   '], ['trailing spaces   \n', '   \n']],
  ['x\u001fy\n\u001f\n', '\tx\u001fy\n\u001f\n', ['x\u001fy', '\u001f'], ['x\u001fy\n', '\u001f\n']],
  ['\u3000\n\u00a0x\n', '\u3000\n\t\u00a0x\n', ['\u3000', '\u00a0x'], ['\u3000\n', '\u00a0x\n']],
];

describe('textwrapIndent (textwrap.indent)', () => {
  it.each(CASES)('indents %j like Python, skipping blank lines', (text, indented) => {
    expect(textwrapIndent(text, '\t')).toBe(indented);
  });

  it('prefixes with any string', () => {
    expect(textwrapIndent('a\n\nb', '> ')).toBe('> a\n\n> b');
  });
});

describe('splitlines (str.splitlines)', () => {
  it.each(CASES)('splits %j on every Python line boundary', (text, _indented, lines, withEnds) => {
    expect([splitlines(text), splitlines(text, true)]).toEqual([lines, withEnds]);
  });
});

describe('hasNonSpace (s.strip() != "")', () => {
  it('counts only Python whitespace as blank: \\x1c-\\x1f and U+3000 are, U+FEFF and U+200B are not', () => {
    expect(['\x1c\x1d\x1e\x1f', '\u3000\u2000\xa0\x85', ' \t\n\v\f\r'].map(hasNonSpace)).toEqual([false, false, false]);
    expect(['\ufeff', '\u200b', ' x '].map(hasNonSpace)).toEqual([true, true, true]);
  });
});
