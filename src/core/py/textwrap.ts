// Python line and whitespace helpers: str.splitlines, str.isspace and textwrap.indent.

/** The line boundaries of Python's `str.splitlines` (`\r\n` counts as one). */
const LINE_BREAK = /\r\n|[\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** Python `str.isspace` characters (Unicode White_Space plus the separators \x1c-\x1f). */
const NON_SPACE = /[^\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Python `str.splitlines(keepends)`: no trailing empty line, `''` gives `[]`. */
export const splitlines = (text: string, keepends = false): string[] => {
  const lines: string[] = [];
  let start = 0;
  for (const match of text.matchAll(LINE_BREAK)) {
    const end = match.index + match[0].length;
    lines.push(text.slice(start, keepends ? end : match.index));
    start = end;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
};

/** Python `s.strip() != ''`: the string has a character that is not Python whitespace. */
export const hasNonSpace = (s: string): boolean => NON_SPACE.test(s);

/** Python `textwrap.indent(text, prefix)`: prefix every line that is not blank, keeping line endings. */
export const textwrapIndent = (text: string, prefix: string): string =>
  splitlines(text, true)
    .map((line) => (hasNonSpace(line) ? prefix + line : line))
    .join('');
