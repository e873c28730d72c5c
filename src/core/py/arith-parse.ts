// Parsing the arithmetic subset of Python that `calculate` accepts (digits, `+-*/().` and spaces) with
// CPython 3.12's SyntaxError texts: its tokenizer errors, its second-pass hints and its generic message.
import { PyError } from './errors.ts';

export type ArithNode =
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'tuple' }
  | { readonly kind: 'ellipsis' }
  | { readonly kind: 'unary'; readonly op: '+' | '-'; readonly operand: ArithNode }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: ArithNode; readonly right: ArithNode }
  | { readonly kind: 'call'; readonly callee: ArithNode; readonly args: readonly CallArg[] };

export type BinaryOp = '+' | '-' | '*' | '/' | '//' | '**';
export interface CallArg {
  readonly star: '' | '*' | '**';
  readonly value: ArithNode;
}

interface Token {
  readonly type: 'num' | 'op' | 'end';
  readonly text: string;
  /** Parenthesis nesting after the token, as CPython's tokenizer records it. */
  readonly level: number;
}

/** CPython's tokenizer refuses deeper nesting than this. */
const MAX_PAREN_LEVEL = 200;
/**
 * Approximations of CPython's parser stack and compiler recursion limits (which depend on the rule mix):
 * nesting beyond these fails as it does in CPython, though the exact thresholds differ.
 */
const MAX_PARSER_DEPTH = 3000;
const MAX_COMPILE_DEPTH = 2000;

/** The depth of a tree, computed without recursion (the tree of `1+1+…` is as deep as it is long). */
const treeDepth = (root: ArithNode): number => {
  let max = 0;
  const stack: [ArithNode, number][] = [[root, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    max = Math.max(max, depth);
    if (node.kind === 'unary') stack.push([node.operand, depth + 1]);
    if (node.kind === 'binary') stack.push([node.left, depth + 1], [node.right, depth + 1]);
    if (node.kind === 'call') stack.push([node.callee, depth + 1], ...node.args.map((a) => [a.value, depth + 1] as [ArithNode, number]));
  }
  return max;
};

const syntaxError = (message: string, line = 1): PyError => new PyError('SyntaxError', `${message} (<string>, line ${line})`);

const LEADING_ZEROS =
  'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers';

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** A lazy tokenizer: like CPython's, an error surfaces only when the parser fetches the offending token. */
class Tokens {
  private readonly src: string;
  private pos = 0;
  private level = 0;
  private readonly tokens: Token[] = [];
  /** The tokenizer error already raised, if any. */
  failure: PyError | null = null;

  constructor(src: string) {
    this.src = src;
  }

  get fetched(): number {
    return this.tokens.length;
  }

  at(i: number): Token {
    while (this.tokens.length <= i) this.tokens.push(this.next());
    return this.tokens[i]!;
  }

  /** Tokenizes the rest of the source for errors the tokenizer itself raises (not the unclosed paren). */
  scanRest(): PyError | null {
    try {
      while (this.at(this.tokens.length - 1).type !== 'end') this.at(this.tokens.length);
      return null;
    } catch (e) {
      return e instanceof PyError && e.message.startsWith("'(' was never closed") ? null : (e as PyError);
    }
  }

  private next(): Token {
    if (this.failure) throw this.failure;
    try {
      return this.read();
    } catch (e) {
      this.failure = e as PyError;
      throw e;
    }
  }

  private read(): Token {
    const s = this.src;
    while (s[this.pos] === ' ') this.pos++;
    const c = s[this.pos];
    if (c === undefined) {
      if (this.level > 0) throw syntaxError("'(' was never closed");
      return { type: 'end', text: '', level: 0 };
    }
    const start = this.pos;
    if (isDigit(c) || (c === '.' && isDigit(s[this.pos + 1]))) return this.number(start);
    if (c === '.' && s.startsWith('...', this.pos)) return this.op('...', 3);
    if (c === '*' || c === '/') return this.op(s[this.pos + 1] === c ? c + c : c, s[this.pos + 1] === c ? 2 : 1);
    if (c === '(') {
      if (this.level >= MAX_PAREN_LEVEL) throw syntaxError('too many nested parentheses');
      this.level++;
      return this.op('(', 1);
    }
    if (c === ')') {
      if (this.level === 0) throw syntaxError("unmatched ')'");
      this.level--;
      return this.op(')', 1);
    }
    return this.op(c, 1);
  }

  private op(text: string, length: number): Token {
    this.pos += length;
    return { type: 'op', text, level: this.level };
  }

  private digits(): void {
    while (isDigit(this.src[this.pos])) this.pos++;
  }

  private number(start: number): Token {
    const s = this.src;
    if (s[this.pos] !== '.') {
      const zeroLed = s[this.pos] === '0';
      this.digits();
      if (s[this.pos] !== '.') {
        const text = s.slice(start, this.pos);
        if (zeroLed && /[1-9]/.test(text)) throw syntaxError(LEADING_ZEROS);
        return { type: 'num', text, level: this.level };
      }
    }
    this.pos++; // the '.'
    this.digits();
    return { type: 'num', text: s.slice(start, this.pos), level: this.level };
  }
}

/** Raised inside the parser when the input does not match the grammar at some token. */
class NoMatch extends Error {}

/**
 * A recursive-descent parser of Python's grammar restricted to this alphabet. `hints` turns on CPython's
 * second-pass rules ("Perhaps you forgot a comma?", starred expressions inside parentheses).
 */
class Parser {
  private readonly tokens: Tokens;
  private readonly hints: boolean;
  private pos = 0;
  private depth = 0;

  constructor(tokens: Tokens, hints: boolean) {
    this.tokens = tokens;
    this.hints = hints;
  }

  private peek(offset = 0): Token {
    return this.tokens.at(this.pos + offset);
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t.type === 'op' && t.text === text;
  }

  private expectOp(text: string): void {
    if (!this.isOp(text)) throw new NoMatch();
    this.pos++;
  }

  parseEval(): ArithNode {
    const node = this.expression();
    if (this.peek().type !== 'end') throw new NoMatch();
    return node;
  }

  /** `expression`; the hint pass also tries `disjunction expression` (two juxtaposed expressions). */
  private expression(): ArithNode {
    const node = this.sum();
    if (this.hints) {
      const end = this.pos;
      const plain = new Parser(this.tokens, false);
      plain.pos = end;
      try {
        plain.sum();
      } catch (e) {
        if (!(e instanceof NoMatch)) throw e;
        return node;
      }
      if (this.tokens.at(plain.pos - 1).level > 0) throw syntaxError('invalid syntax. Perhaps you forgot a comma?');
    }
    return node;
  }

  private sum(): ArithNode {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.peek().text as '+' | '-';
      const save = this.pos;
      this.pos++;
      try {
        left = { kind: 'binary', op, left, right: this.term() };
      } catch (e) {
        if (!(e instanceof NoMatch)) throw e;
        this.pos = save;
        break;
      }
    }
    return left;
  }

  private term(): ArithNode {
    let left = this.factor();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//')) {
      const op = this.peek().text as '*' | '/' | '//';
      const save = this.pos;
      this.pos++;
      try {
        left = { kind: 'binary', op, left, right: this.factor() };
      } catch (e) {
        if (!(e instanceof NoMatch)) throw e;
        this.pos = save;
        break;
      }
    }
    return left;
  }

  private factor(): ArithNode {
    if (++this.depth > MAX_PARSER_DEPTH) {
      throw new PyError('MemoryError', 'Parser stack overflowed - Python source too complex to parse');
    }
    try {
      if (this.isOp('+') || this.isOp('-')) {
        const op = this.peek().text as '+' | '-';
        this.pos++;
        return { kind: 'unary', op, operand: this.factor() };
      }
      return this.power();
    } finally {
      this.depth--;
    }
  }

  private power(): ArithNode {
    const base = this.primary();
    if (!this.isOp('**')) return base;
    const save = this.pos;
    this.pos++;
    try {
      return { kind: 'binary', op: '**', left: base, right: this.factor() };
    } catch (e) {
      if (!(e instanceof NoMatch)) throw e;
      this.pos = save;
      return base;
    }
  }

  private primary(): ArithNode {
    let node = this.atom();
    // `primary '.' NAME`: no name can follow here, but the parser still fetches the token after the dot.
    if (this.isOp('.')) this.peek(1);
    while (this.isOp('(')) {
      const save = this.pos;
      try {
        this.pos++;
        const args = this.isOp(')') ? [] : [this.argument()];
        this.expectOp(')');
        node = { kind: 'call', callee: node, args };
      } catch (e) {
        if (!(e instanceof NoMatch)) throw e;
        this.pos = save;
        break;
      }
    }
    return node;
  }

  private argument(): CallArg {
    for (const star of ['*', '**'] as const) {
      if (this.isOp(star)) {
        this.pos++;
        return { star, value: this.expression() };
      }
    }
    return { star: '', value: this.expression() };
  }

  private atom(): ArithNode {
    const t = this.peek();
    if (t.type === 'num') {
      this.pos++;
      return /[.]/.test(t.text) ? { kind: 'float', value: Number(t.text) } : { kind: 'int', value: BigInt(t.text) };
    }
    if (t.type === 'op' && t.text === '...') {
      this.pos++;
      return { kind: 'ellipsis' };
    }
    if (!this.isOp('(')) throw new NoMatch();
    const open = this.pos;
    this.pos++;
    if (this.isOp(')')) {
      this.pos++;
      return { kind: 'tuple' };
    }
    try {
      const inner = this.expression();
      this.expectOp(')');
      return inner;
    } catch (e) {
      if (!(e instanceof NoMatch) || !this.hints) throw e;
    }
    // CPython's invalid_group rule: a starred expression alone in parentheses.
    this.pos = open + 1;
    const star = this.isOp('*') ? '*' : this.isOp('**') ? '**' : null;
    if (star === null) throw new NoMatch();
    this.pos++;
    this.expression();
    this.expectOp(')');
    throw syntaxError(star === '*' ? 'cannot use starred expression here' : 'cannot use double starred expression here');
  }
}

/** `compile(source, "<string>", "eval")` for the calculator alphabet: the expression tree or CPython's SyntaxError. */
export const parseArithmetic = (source: string): ArithNode => {
  // eval() strips leading spaces; an empty expression is reported on line 0.
  const text = source.replace(/^ +/, '');
  if (text.trim() === '') throw syntaxError('invalid syntax', 0);
  const tokens = new Tokens(text);
  try {
    const tree = new Parser(tokens, false).parseEval();
    if (treeDepth(tree) > MAX_COMPILE_DEPTH) {
      throw new PyError('RecursionError', 'maximum recursion depth exceeded during compilation');
    }
    return tree;
  } catch (e) {
    if (!(e instanceof NoMatch)) throw e;
  }
  let error = syntaxError('invalid syntax');
  try {
    new Parser(tokens, true).parseEval();
  } catch (e) {
    if (e === tokens.failure) throw e;
    if (!(e instanceof NoMatch)) error = e as PyError;
  }
  // A tokenizer error anywhere in the source takes precedence over the parser's message.
  throw tokens.scanRest() ?? error;
};
