// Questions at the terminal, asked and re-asked as the reference's rich Prompt/Confirm do: the default in
// parentheses, choices in brackets, an empty answer takes the default. Lines are read from stdin one at a
// time, so piped answers work too.
import { createInterface } from 'node:readline/promises';
import type { Interface } from 'node:readline/promises';

export interface Asker {
  /** A free-text answer (stripped); `choices` limits it to one of them. */
  ask(question: string, options?: { readonly default?: string; readonly choices?: readonly string[] }): Promise<string>;
  /** A yes/no answer. */
  confirm(question: string, defaultValue: boolean): Promise<boolean>;
  /** The next line as typed (the prompt shown first when given), or null once the input ends. */
  line(prompt?: string): Promise<string | null>;
  close(): void;
}

export const terminalAsker = (out: (line: string) => void): Asker => {
  const rl: Interface = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const line = async (prompt?: string): Promise<string | null> => {
    if (prompt !== undefined) process.stdout.write(prompt);
    const next = await lines.next();
    return next.done ? null : next.value;
  };
  const answer = async (prompt: string): Promise<string> => {
    const value = await line(prompt);
    if (value === null) throw new Error(`no answer to "${prompt.trim()}": the input ended`);
    return value;
  };
  const suffix = (text: string | undefined): string => (text === undefined ? '' : ` (${text})`);
  return {
    async ask(question, options = {}) {
      const { default: fallback, choices } = options;
      const prompt = `${question}${choices ? ` [${choices.join('/')}]` : ''}${suffix(fallback)}: `;
      for (;;) {
        const raw = await answer(prompt);
        if (raw === '' && fallback !== undefined) return fallback;
        const value = raw.trim();
        if (choices === undefined || choices.includes(value)) return value;
        out('Please select one of the available options');
      }
    },
    async confirm(question, defaultValue) {
      const prompt = `${question} [y/n]${suffix(defaultValue ? 'y' : 'n')}: `;
      for (;;) {
        const raw = await answer(prompt);
        if (raw === '') return defaultValue;
        const value = raw.trim().toLowerCase();
        if (value === 'y' || value === 'n') return value === 'y';
        out('Please enter Y or N');
      }
    },
    line,
    close: () => rl.close(),
  };
};
