// Telecom dates: held as the text Python's `str()` gives the reference's `date` / `datetime` values, which is
// also what they serialize to in tool results and DB hashes ("2025-02-25", "2025-01-15 10:30:00").
// Reference: src/tau2/domains/telecom/utils.py (a fixed "today").
import { z } from 'zod';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

const isCalendarDate = (text: string): boolean => {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
};

/** A pydantic `date` field: an ISO date string, kept as Python's `str(date)`. */
export const DateSchema = z.string().refine(isCalendarDate, { message: 'Input should be a valid date' });

/** A pydantic `datetime` field from ISO text (a bare date means midnight), kept as Python's `str(datetime)`. */
export const DateTimeSchema = z
  .string()
  .refine((text) => {
    const m = DATETIME.exec(text);
    return m !== null && isCalendarDate(m[1]!) && Number(m[2] ?? 0) < 24 && Number(m[3] ?? 0) < 60 && Number(m[4] ?? 0) < 60;
  }, { message: 'Input should be a valid datetime' })
  .transform((text) => {
    const m = DATETIME.exec(text)!;
    const micros = m[5] ? `.${m[5].padEnd(6, '0')}` : '';
    return `${m[1]} ${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}${micros === '.000000' ? '' : micros}`;
  });

const parts = (date: string): [number, number, number] => {
  const m = DATE.exec(date)!;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};

const format = (d: Date): string =>
  `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;

/** `date + timedelta(days=n)`. */
export const addDays = (date: string, days: number): string => {
  const [y, m, d] = parts(date);
  return format(new Date(Date.UTC(y, m - 1, d + days)));
};

/** The first day of the month `offset` months after the month of `date`. */
export const firstOfMonth = (date: string, offset = 0): string => {
  const [y, m] = parts(date);
  return format(new Date(Date.UTC(y, m - 1 + offset, 1)));
};

/** The telecom world's fixed "today" (reference `get_today()`). */
export const TODAY = '2025-02-25';
