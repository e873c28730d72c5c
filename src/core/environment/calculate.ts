// The `calculate` tool shared by airline and retail: Python `eval` of an arithmetic expression, rounded
// to 2 decimals and printed as a Python float (reference: AirlineTools.calculate / RetailTools.calculate).
import { arithToFloat, evaluateArithmetic } from '../py/arith-eval.ts';
import { parseArithmetic } from '../py/arith-parse.ts';
import { PyError, pyRound, pyStr, pyTypeName } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { ToolError } from './errors.ts';
import { iterate } from './python-args.ts';
import type { ToolSpec } from './toolkit.ts';

const ALLOWED_TEXT = '0123456789+-*/(). ';
const ALLOWED = new Set(ALLOWED_TEXT);

/** What the reference's character check and `eval` do with a model-sent argument that is not a string. */
const rejectNonString = (expression: PyValue | undefined): never => {
  for (const item of iterate(expression)) {
    if (typeof item !== 'string') {
      throw new ToolError(`'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    if (!ALLOWED_TEXT.includes(item)) throw new ToolError('Invalid characters in expression');
  }
  throw new ToolError('eval() arg 1 must be a string, bytes or code object');
};

/** `str(round(float(eval(expression)), 2))`, or the text of the Python exception it raises. */
export const calculateExpression = (expression: string): string => {
  if (![...expression].every((c) => ALLOWED.has(c))) throw new ToolError('Invalid characters in expression');
  try {
    return pyStr(pyRound(arithToFloat(evaluateArithmetic(parseArithmetic(expression))), 2));
  } catch (e) {
    if (e instanceof PyError) throw new ToolError(e.message);
    throw e;
  }
};

export const calculate: ToolSpec<unknown> = {
  type: 'generic',
  description: 'Calculate the result of a mathematical expression.',
  parameters: {
    properties: {
      expression: {
        description:
          "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.",
        title: 'Expression',
        type: 'string',
      },
    },
    required: ['expression'],
    title: 'parameters',
    type: 'object',
  },
  run: (_db, { expression }) =>
    typeof expression === 'string' ? calculateExpression(expression) : rejectNonString(expression),
};
