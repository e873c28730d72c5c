// Evaluating a parsed arithmetic expression with CPython's semantics: arbitrary-precision ints, floats,
// complex results of fractional powers, `()` and `...` operands, and CPython's exception texts.
import { PyError } from './errors.ts';
import { PyFloat, floordiv as floatFloorDiv, pow as floatPowBoxed, truediv as floatTrueDiv } from './float.ts';
import { ratioToDouble } from './float-pow.ts';
import { floatRepr } from './float-format.ts';
import type { ArithNode, BinaryOp } from './arith-parse.ts';

export type ArithValue =
  | { readonly t: 'int'; readonly v: bigint }
  | { readonly t: 'float'; readonly v: number }
  | { readonly t: 'complex'; readonly re: number; readonly im: number }
  | { readonly t: 'tuple' }
  | { readonly t: 'ellipsis' };

/** Int results beyond this many bits are refused: CPython would compute them (slowly) only to overflow float(). */
const MAX_INT_BITS = 1 << 22;

const typeError = (message: string): PyError => new PyError('TypeError', message);
const int = (v: bigint): ArithValue => ({ t: 'int', v });
const float = (v: number): ArithValue => ({ t: 'float', v });

const typeName = (x: ArithValue): string => (x.t === 'tuple' ? 'tuple' : x.t === 'ellipsis' ? 'ellipsis' : x.t);

/** `str(x)` as CPython's call errors show it. */
const strOf = (x: ArithValue): string => {
  switch (x.t) {
    case 'int':
      return x.v.toString();
    case 'float':
      return floatRepr(x.v);
    case 'tuple':
      return '()';
    case 'ellipsis':
      return 'Ellipsis';
    case 'complex':
      return `(${floatRepr(x.re)}${x.im < 0 || Object.is(x.im, -0) ? '' : '+'}${floatRepr(x.im)}j)`;
  }
};

/** float(int): correctly rounded, OverflowError beyond the double range. */
export const intToFloat = (v: bigint): number => {
  const f = Number(v);
  if (!Number.isFinite(f)) throw new PyError('OverflowError', 'int too large to convert to float');
  return f;
};

const isNumber = (x: ArithValue): x is Extract<ArithValue, { t: 'int' | 'float' | 'complex' }> =>
  x.t === 'int' || x.t === 'float' || x.t === 'complex';

const asFloat = (x: ArithValue): number => (x.t === 'int' ? intToFloat(x.v) : (x as { v: number }).v);
const asComplex = (x: ArithValue): [number, number] => (x.t === 'complex' ? [x.re, x.im] : [asFloat(x), 0]);

const unsupported = (op: string, a: ArithValue, b: ArithValue): PyError =>
  typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);

const bitLength = (n: bigint): number => (n < 0n ? -n : n).toString(2).length;

const intTrueDiv = (a: bigint, b: bigint): number => {
  if (b === 0n) throw new PyError('ZeroDivisionError', 'division by zero');
  const negative = a < 0n !== b < 0n;
  const q = ratioToDouble(a < 0n ? -a : a, b < 0n ? -b : b);
  if (!Number.isFinite(q)) throw new PyError('OverflowError', 'integer division result too large for a float');
  return negative ? -q : q;
};

const intFloorDiv = (a: bigint, b: bigint): bigint => {
  if (b === 0n) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero');
  const q = a / b;
  return q * b !== a && a < 0n !== b < 0n ? q - 1n : q;
};

const intPow = (a: bigint, b: bigint): ArithValue => {
  if (b < 0n) return floatPow(intToFloat(a), intToFloat(b));
  if (a === 0n || a === 1n) return int(b === 0n ? 1n : a);
  if (a === -1n) return int(b % 2n === 0n ? 1n : -1n);
  if (BigInt(bitLength(a)) * b > BigInt(MAX_INT_BITS)) {
    throw new PyError('OverflowError', 'int too large to convert to float');
  }
  return int(a ** b);
};

/** Python complex multiplication, division (Smith's algorithm, as CPython's _Py_c_quot) and power. */
const cmul = ([a, b]: [number, number], [c, d]: [number, number]): [number, number] => [a * c - b * d, a * d + b * c];

const cdiv = ([a, b]: [number, number], [c, d]: [number, number]): [number, number] => {
  const absC = Math.abs(c);
  const absD = Math.abs(d);
  if (absC >= absD) {
    if (absC === 0) throw new PyError('ZeroDivisionError', 'complex division by zero');
    const ratio = d / c;
    const denom = c + d * ratio;
    return [(a + b * ratio) / denom, (b - a * ratio) / denom];
  }
  if (absD >= absC) {
    const ratio = c / d;
    const denom = c * ratio + d;
    return [(a * ratio + b) / denom, (b * ratio - a) / denom];
  }
  return [NaN, NaN];
};

const cpow = ([a, b]: [number, number], [c, d]: [number, number]): ArithValue => {
  if (c === 0 && d === 0) return { t: 'complex', re: 1, im: 0 };
  if (a === 0 && b === 0) {
    if (d !== 0 || c < 0) throw new PyError('ZeroDivisionError', '0.0 to a negative or complex power');
    return { t: 'complex', re: 0, im: 0 };
  }
  const vabs = Math.hypot(a, b);
  let len = vabs ** c;
  const at = Math.atan2(b, a);
  let phase = at * c;
  if (d !== 0) {
    len /= Math.exp(at * d);
    phase += d * Math.log(vabs);
  }
  const re = len * Math.cos(phase);
  const im = len * Math.sin(phase);
  if (!Number.isFinite(re) || !Number.isFinite(im)) throw new PyError('OverflowError', 'complex exponentiation');
  return { t: 'complex', re, im };
};

/** float ** float, switching to a complex power for a negative base and a fractional exponent (as CPython). */
const floatPow = (x: number, y: number): ArithValue => {
  try {
    return float((floatPowBoxed(new PyFloat(x), new PyFloat(y)) as PyFloat).value);
  } catch (e) {
    if (e instanceof PyError && e.pyType === 'ComplexResultError') return cpow([x, 0], [y, 0]);
    throw e;
  }
};

const arithmetic = (op: BinaryOp, a: ArithValue, b: ArithValue): ArithValue => {
  const pyOp = op === '**' ? '** or pow()' : op;
  if (!isNumber(a) || !isNumber(b)) throw unsupported(pyOp, a, b);
  if (a.t === 'int' && b.t === 'int') {
    switch (op) {
      case '+':
        return int(a.v + b.v);
      case '-':
        return int(a.v - b.v);
      case '*':
        if (bitLength(a.v) + bitLength(b.v) > MAX_INT_BITS) {
          throw new PyError('OverflowError', 'int too large to convert to float');
        }
        return int(a.v * b.v);
      case '/':
        return float(intTrueDiv(a.v, b.v));
      case '//':
        return int(intFloorDiv(a.v, b.v));
      case '**':
        return intPow(a.v, b.v);
    }
  }
  if (a.t === 'complex' || b.t === 'complex') {
    if (op === '//') throw unsupported(op, a, b);
    const x = asComplex(a);
    const y = asComplex(b);
    switch (op) {
      case '+':
        return { t: 'complex', re: x[0] + y[0], im: x[1] + y[1] };
      case '-':
        return { t: 'complex', re: x[0] - y[0], im: x[1] - y[1] };
      case '*': {
        const [re, im] = cmul(x, y);
        return { t: 'complex', re, im };
      }
      case '/': {
        const [re, im] = cdiv(x, y);
        return { t: 'complex', re, im };
      }
      case '**':
        return cpow(x, y);
    }
  }
  const x = asFloat(a);
  const y = asFloat(b);
  switch (op) {
    case '+':
      return float(x + y);
    case '-':
      return float(x - y);
    case '*':
      return float(x * y);
    case '/':
      return float(floatTrueDiv(new PyFloat(x), new PyFloat(y)).value);
    case '//':
      return float((floatFloorDiv(new PyFloat(x), new PyFloat(y)) as PyFloat).value);
    case '**':
      return floatPow(x, y);
  }
};

/** The empty tuple's sequence operations: concatenation and repetition. */
const sequenceOp = (op: BinaryOp, a: ArithValue, b: ArithValue): ArithValue | null => {
  if (op === '+' && a.t === 'tuple') {
    if (b.t !== 'tuple') throw typeError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
    return a;
  }
  if (op === '*' && (a.t === 'tuple' || b.t === 'tuple')) {
    const count = a.t === 'tuple' ? b : a;
    if (count.t !== 'int') throw typeError(`can't multiply sequence by non-int of type '${typeName(count)}'`);
    if (count.v > 2n ** 63n - 1n || count.v < -(2n ** 63n)) {
      throw new PyError('OverflowError', "cannot fit 'int' into an index-sized integer");
    }
    return { t: 'tuple' };
  }
  return null;
};

const call = (callee: ArithValue, args: readonly { star: string; value: ArithValue }[]): never => {
  for (const { star, value } of args) {
    if (star === '*' && value.t !== 'tuple') {
      throw typeError(`${strOf(callee)} argument after * must be an iterable, not ${typeName(value)}`);
    }
    if (star === '**') throw typeError(`${strOf(callee)} argument after ** must be a mapping, not ${typeName(value)}`);
  }
  throw typeError(`'${typeName(callee)}' object is not callable`);
};

/** Evaluates the tree left to right, as CPython's bytecode does. */
export const evaluateArithmetic = (node: ArithNode): ArithValue => {
  switch (node.kind) {
    case 'int':
      return int(node.value);
    case 'float':
      return float(node.value);
    case 'tuple':
      return { t: 'tuple' };
    case 'ellipsis':
      return { t: 'ellipsis' };
    case 'unary': {
      const x = evaluateArithmetic(node.operand);
      if (!isNumber(x)) throw typeError(`bad operand type for unary ${node.op}: '${typeName(x)}'`);
      if (node.op === '+') return x;
      if (x.t === 'int') return int(-x.v);
      if (x.t === 'float') return float(-x.v);
      return { t: 'complex', re: -x.re, im: -x.im };
    }
    case 'binary': {
      const a = evaluateArithmetic(node.left);
      const b = evaluateArithmetic(node.right);
      return sequenceOp(node.op, a, b) ?? arithmetic(node.op, a, b);
    }
    case 'call': {
      const callee = evaluateArithmetic(node.callee);
      return call(
        callee,
        node.args.map((a) => ({ star: a.star, value: evaluateArithmetic(a.value) })),
      );
    }
  }
};

/** Python `float(x)` of an evaluation result. */
export const arithToFloat = (x: ArithValue): number => {
  if (x.t === 'int') return intToFloat(x.v);
  if (x.t === 'float') return x.v;
  throw typeError(`float() argument must be a string or a real number, not '${typeName(x)}'`);
};
