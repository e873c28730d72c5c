// Python `re` patterns compiled as JavaScript regular expressions, for the grep retriever. Hand-written: no
// library converts between the two dialects, and the agent writes Python syntax. The translation covers the
// differences an agent's pattern is likely to meet (see README.md for what it leaves out); a pattern Python
// would reject is reported as such, so the caller can fall back to a literal search as the reference does.

/** Thrown for a pattern that Python's `re.compile` rejects (or that this translation cannot express). */
export class PyRegexError extends Error {
  override readonly name = 'PyRegexError';
}

// Escapes Python knows; any other escaped ASCII letter is a `bad escape` error in Python.
const PY_LETTER_ESCAPES = new Set('abBdDfnrsStvwWAZxuUN'.split(''));

const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

interface Translated {
  readonly source: string;
  readonly flags: string;
}

const leadingFlags = (pattern: string): { rest: string; flags: Set<string> } => {
  const flags = new Set<string>();
  let rest = pattern;
  for (let match = /^\(\?([aiLmsux]+)\)/.exec(rest); match; match = /^\(\?([aiLmsux]+)\)/.exec(rest)) {
    for (const flag of match[1]!) {
      if (flag === 'i' || flag === 'm' || flag === 's') flags.add(flag);
      else if (flag !== 'u') throw new PyRegexError(`unsupported inline flag ${flag}`);
    }
    rest = rest.slice(match[0].length);
  }
  return { rest, flags };
};

const translate = (pattern: string): Translated => {
  const { rest, flags } = leadingFlags(pattern);
  const multiline = flags.has('m');
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === '\\') {
      const next = rest[i + 1];
      if (next === undefined) throw new PyRegexError('bad escape (end of pattern)');
      i++;
      if (/[A-Za-z]/.test(next) && !PY_LETTER_ESCAPES.has(next)) throw new PyRegexError(`bad escape \\${next}`);
      if (next === 'a') out += '\\x07';
      else if (next === 'A' && !inClass) out += '(?<![\\s\\S])';
      else if (next === 'Z' && !inClass) out += '(?![\\s\\S])';
      else if (next === 'U' || next === 'N') throw new PyRegexError(`unsupported escape \\${next}`);
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      // A `]` (or `^]`) right after the opening bracket is a literal in Python.
      if (rest[i + 1] === '^') out += rest[++i];
      if (rest[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    // `(?<name>…)` is JavaScript's syntax; Python knows only `(?P<name>…)` and the lookbehinds.
    if (ch === '(' && /^\(\?<[^=!]/.test(rest.slice(i))) throw new PyRegexError(`unknown extension ?<${rest[i + 3]}`);
    if (ch === '(' && rest.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    if (ch === '(' && rest.startsWith('(?P=', i)) {
      const end = rest.indexOf(')', i);
      if (end < 0) throw new PyRegexError('missing ), unterminated name');
      out += `\\k<${rest.slice(i + 4, end)}>`;
      i = end;
      continue;
    }
    if (ch === '{' && /^\{,\d+\}/.test(rest.slice(i))) {
      out += '{0,';
      i++;
      continue;
    }
    // Without MULTILINE, Python's `$` also matches just before a final newline.
    if (ch === '$' && !multiline) {
      out += '(?=\\n?(?![\\s\\S]))';
      continue;
    }
    out += ch;
  }
  if (inClass) throw new PyRegexError('unterminated character set');
  return { source: out, flags: [...flags].join('') };
};

/**
 * The global regular expression for a Python pattern, as `re.compile(pattern, flags)` would match.
 * @throws PyRegexError when Python would reject the pattern (or it cannot be expressed here).
 */
export const compilePyRegex = (pattern: string, options: { ignoreCase: boolean }): RegExp => {
  const { source, flags } = translate(pattern);
  const all = new Set(`g${flags}${options.ignoreCase ? 'i' : ''}`);
  try {
    return new RegExp(source, [...all].join(''));
  } catch (err) {
    throw new PyRegexError(err instanceof Error ? err.message : String(err));
  }
};

/** `re.compile(re.escape(pattern))`: the pattern as literal text. */
export const compileLiteral = (text: string, options: { ignoreCase: boolean }): RegExp =>
  new RegExp(escapeLiteral(text), options.ignoreCase ? 'gi' : 'g');

/** `len(pattern.findall(text))`: non-overlapping matches, empty ones included. */
export const countMatches = (regex: RegExp, text: string): number => {
  let count = 0;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    count++;
    if (match[0].length === 0) regex.lastIndex++;
  }
  return count;
};
