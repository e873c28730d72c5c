// Local wall-clock time in the formats the reference's logs use (Python's datetime.now() and loguru's {time}).
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const dateParts = (d: Date) => ({
  date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
  time: `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
  ms: pad(d.getMilliseconds(), 3),
});

/** `datetime.now().isoformat()`: 2026-11-25T06:40:35.080000. */
export const localIso = (d: Date): string => {
  const { date, time, ms } = dateParts(d);
  return `${date}T${time}.${ms}000`;
};

/** loguru's `{time:YYYY-MM-DD HH:mm:ss.SSS}`. */
export const logTime = (d: Date): string => {
  const { date, time, ms } = dateParts(d);
  return `${date} ${time}.${ms}`;
};

/** `strftime("%Y%m%d_%H%M%S_%f")[:-3]`: 20261125_064035_080. */
export const fileStamp = (d: Date): string => {
  const { date, time, ms } = dateParts(d);
  return `${date.replaceAll('-', '')}_${time.replaceAll(':', '')}_${ms}`;
};
