// Splitting work for D1, whose statements take at most 100 bound parameters.

export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Consecutive items in groups whose sizes add up to at most `max` (an item larger than `max` makes a group of its own). */
export const chunksOfSize = <T>(items: readonly T[], size: (item: T) => number, max: number): T[][] => {
  const groups: T[][] = [];
  let total = Number.POSITIVE_INFINITY;
  for (const item of items) {
    const n = size(item);
    if (total + n > max) {
      groups.push([]);
      total = 0;
    }
    groups.at(-1)!.push(item);
    total += n;
  }
  return groups;
};
