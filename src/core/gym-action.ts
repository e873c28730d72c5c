// An agent action in the reference gym's text format (reference: parse_action_string), as the message it sends:
// what a person types in `tau2-edge play` and what an OpenEnv step sends as `{"action": …}`. A JSON tool call
// `{"name": …, "arguments": {…}}`, a functional call `name(key='value', n=2)` with Python literal values (what
// ast.literal_eval reads: strings, numbers, True/False/None, lists, tuples, dicts), or else plain text.
// The literal reader is hand-written: no JavaScript library reads Python literals, and its subset is small.
import { dumpsPy, pyFloat } from './py/index.ts';
import type { PyValue } from './py/index.ts';

export interface PlayedMessage {
  readonly role: 'assistant';
  readonly content: string | null;
  readonly tool_calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] | null;
}

class LiteralReader {
  private at = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at character ${this.at + 1}`);
  }

  done(): boolean {
    this.space();
    return this.at >= this.text.length;
  }

  eat(char: string): boolean {
    this.space();
    if (this.text[this.at] !== char) return false;
    this.at++;
    return true;
  }

  expect(char: string): void {
    if (!this.eat(char)) this.fail(`expected '${char}'`);
  }

  name(): string {
    this.space();
    const match = /^[A-Za-z_]\w*/.exec(this.text.slice(this.at));
    if (!match) this.fail('expected a name');
    this.at += match[0].length;
    return match[0];
  }

  /** Items up to `close`, comma-separated (a trailing comma allowed). */
  items<T>(close: string, item: () => T): T[] {
    const out: T[] = [];
    while (!this.eat(close)) {
      out.push(item());
      if (!this.eat(',')) {
        this.expect(close);
        break;
      }
    }
    return out;
  }

  value(): PyValue {
    this.space();
    const c = this.text[this.at];
    if (c === '[') return (this.at++, this.items(']', () => this.value()));
    if (c === '(') return (this.at++, this.items(')', () => this.value()));
    if (c === '{') {
      this.at++;
      return Object.fromEntries(
        this.items('}', () => {
          const key = this.value();
          if (typeof key !== 'string') this.fail('dict keys must be strings');
          this.expect(':');
          return [key, this.value()] as const;
        }),
      );
    }
    if (c === "'" || c === '"') return this.string(c);
    const number = /^-?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)/i.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return /[.e]/i.test(number[0]) ? pyFloat(Number(number[0])) : Number(number[0]);
    }
    const word = this.name();
    if (word === 'True') return true;
    if (word === 'False') return false;
    if (word === 'None') return null;
    return this.fail(`'${word}' is not a literal`);
  }

  private string(quote: string): string {
    this.at++;
    let out = '';
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
    for (;;) {
      const c = this.text[this.at++];
      if (c === undefined) this.fail('unterminated string');
      if (c === quote) return out;
      if (c === '\\') {
        const e = this.text[this.at++] ?? '';
        out += escapes[e] ?? `\\${e}`;
      } else out += c;
    }
  }
}

/** `name(key=value, …)` as a tool name and its arguments, or null when the text is not such a call. */
export const functionalCall = (text: string): { name: string; arguments: Record<string, PyValue> } | null => {
  const match = /^([A-Za-z_]\w*)\(([\s\S]*)\)$/.exec(text);
  if (!match) return null;
  const reader = new LiteralReader(match[2]!);
  const args: Record<string, PyValue> = {};
  while (!reader.done()) {
    const key = reader.name();
    reader.expect('=');
    args[key] = reader.value();
    if (!reader.eat(',') && !reader.done()) reader.expect(',');
  }
  return { name: match[1]!, arguments: args };
};

const jsonToolCall = (text: string): { name: string; arguments: Record<string, unknown> } | null => {
  try {
    const value = JSON.parse(text) as { name?: unknown; arguments?: unknown };
    if (typeof value.name !== 'string' || typeof value.arguments !== 'object' || value.arguments === null) return null;
    return { name: value.name, arguments: value.arguments as Record<string, unknown> };
  } catch {
    return null;
  }
};

/** The message a typed line sends; `n` numbers its tool call id. A malformed functional call throws. */
export const playedMessage = (line: string, n: number): PlayedMessage => {
  const text = line.trim();
  if (text === '') throw new Error('Action cannot be empty');
  const json = jsonToolCall(text);
  const call = json === null ? functionalCall(text) : { name: json.name, arguments: json.arguments as Record<string, PyValue> };
  if (call === null) return { role: 'assistant', content: line, tool_calls: null };
  return toolCallMessage(call.name, call.arguments, n);
};

/** The message that calls one tool; `n` numbers its tool call id. */
export const toolCallMessage = (name: string, args: Record<string, PyValue>, n: number): PlayedMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: dumpsPy(args) } }],
});
