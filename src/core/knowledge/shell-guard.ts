// What the reference's sandbox checks before running a command line, and how it cleans `ls -l` output.
import { PY_WHITESPACE } from './py-text.ts';

const ABSOLUTE_START = new RegExp(`(?:^|[${PY_WHITESPACE};|&])(/[a-zA-Z])`);
const ABSOLUTE_PATH = new RegExp(`(?:^|[${PY_WHITESPACE};|&])(/[a-zA-Z][^${PY_WHITESPACE};|&]*)`);
const LEADING_SPACE = new RegExp(`^[${PY_WHITESPACE}]+`);

/**
 * The pattern that makes the reference refuse a command (`..`, an absolute path, `~`, `$HOME`), or null.
 * Quoted strings are ignored, so `grep "a..b"` passes.
 */
export const escapePattern = (command: string): string | null => {
  const stripped = command.replace(/'[^']*'/g, '""').replace(/"[^"]*"/g, '""');
  if (stripped.includes('..')) return '..';
  if (ABSOLUTE_START.test(stripped)) {
    const full = ABSOLUTE_PATH.exec(stripped);
    if (full) return `absolute path: ${full[1]}`;
  }
  if (stripped.replace(LEADING_SPACE, '').startsWith('/')) return 'absolute path at start';
  if (stripped.includes('~')) return '~';
  if (stripped.includes('$HOME') || stripped.includes('${HOME}')) return '$HOME';
  return null;
};

export const refusalMessage = (pattern: string): string =>
  `Error: Command blocked - contains '${pattern}' which could escape the sandbox`;

export const SANDBOX_USER = 'kb_user';
export const SANDBOX_GROUP = 'kb_group';
export const SANDBOX_DATE = 'Jan  1 00:00';

const LS_LINE = /^([dlrwxst@-]+\s+\d+\s+)(\S+)\s+(\S+)\s+(\d+)\s+([A-Za-z0-9_]{3}\s+\d+\s+[\d:]+)\s+(.*)$/gm;

/** `ls -l` lines with the sandbox's fixed owner, group and date in place of the real ones. */
export const sanitizeListing = (output: string): string =>
  output.replace(LS_LINE, (_m, permsLinks: string, _user, _group, size: string, _date, name: string) =>
    `${permsLinks}${SANDBOX_USER}  ${SANDBOX_GROUP}  ${size} ${SANDBOX_DATE} ${name}`);
