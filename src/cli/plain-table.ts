// Borderless aligned tables for the terminal (cli-table3 with its borders blanked): columns padded to their
// widest cell and two spaces apart, lines trimmed at the end, so the output stays plain text for logs and pipes.
import Table from 'cli-table3';

const BLANK_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/** The rows as aligned lines. */
export const tableLines = (rows: readonly (readonly string[])[]): string[] => {
  if (rows.length === 0) return [];
  const table = new Table({ chars: BLANK_BORDERS, style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [] } });
  table.push(...rows.map((r) => [...r]));
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
};

/** The rows as aligned text. */
export const plainTable = (rows: readonly (readonly string[])[]): string => tableLines(rows).join('\n');
