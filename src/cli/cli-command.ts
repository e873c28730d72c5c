// Shared pieces of the commander-based command line: the command context (where output goes, the exit
// code an action sets), number parsers that fail like argparse's, and zod errors in readable form.
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';

export interface CliContext {
  readonly out: (text: string) => void;
  /** Set by the action that ran; main returns it. */
  code: number;
}

/** A subcommand whose action returns the exit code. */
export const defineCommand = <A extends unknown[]>(
  ctx: CliContext,
  name: string,
  description: string,
  examples: readonly string[],
  build: (command: Command) => Command,
  run: (...args: A) => Promise<number>,
): Command => {
  const command = build(new Command(name).description(description));
  if (examples.length > 0) command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ tau2-edge ${e}`).join('\n')}`);
  return command.action(async (...args: unknown[]) => {
    ctx.code = await run(...(args as A));
  });
};

export const int = (text: string): number => {
  if (!/^-?\d+$/.test(text.trim())) throw new InvalidArgumentError(`invalid int value: '${text}'`);
  return Number.parseInt(text, 10);
};

export const float = (text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new InvalidArgumentError(`invalid float value: '${text}'`);
  return value;
};

/** Parses with a zod schema; a failure reads as one line per problem, naming the field. */
export const parseOrExplain = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`invalid options:\n${z.prettifyError(result.error)}`);
  return result.data;
};
