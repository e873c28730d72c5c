// Cosine ranking as the reference computes it: documents and query divided by their norms (a zero document
// norm counts as 1, a zero query scores every document 0), then dot products; best first, and equal scores in
// reverse document order (the reference reverses an ascending argsort).

/** Row-major vectors of equal dimension, each divided by its norm. */
export interface NormalizedMatrix {
  readonly rows: number;
  readonly dimension: number;
  readonly data: Float64Array;
}

const norm = (values: ArrayLike<number>, start: number, length: number): number => {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += values[start + i]! * values[start + i]!;
  return Math.sqrt(sum);
};

export const normalizeRows = (vectors: readonly ArrayLike<number>[]): NormalizedMatrix => {
  const dimension = vectors[0]?.length ?? 0;
  const data = new Float64Array(vectors.length * dimension);
  vectors.forEach((vector, row) => {
    if (vector.length !== dimension) throw new Error(`embedding ${row} has ${vector.length} dimensions, expected ${dimension}`);
    const n = norm(vector, 0, dimension) || 1;
    for (let i = 0; i < dimension; i++) data[row * dimension + i] = vector[i]! / n;
  });
  return { rows: vectors.length, dimension, data };
};

/** Cosine similarity of the query with every row. */
export const cosineScores = (matrix: NormalizedMatrix, query: ArrayLike<number>): Float64Array => {
  const scores = new Float64Array(matrix.rows);
  if (query.length !== matrix.dimension) {
    throw new Error(`query embedding has ${query.length} dimensions, expected ${matrix.dimension}`);
  }
  const n = norm(query, 0, query.length);
  if (n === 0) return scores;
  const q = Float64Array.from(query, (value) => value / n);
  for (let row = 0; row < matrix.rows; row++) {
    let dot = 0;
    const offset = row * matrix.dimension;
    for (let i = 0; i < matrix.dimension; i++) dot += matrix.data[offset + i]! * q[i]!;
    scores[row] = dot;
  }
  return scores;
};

/** The `topK` best rows: score descending, equal scores with the later row first. */
export const rankCosine = (scores: Float64Array, topK: number): number[] => {
  const order = Array.from({ length: scores.length }, (_, i) => i);
  order.sort((a, b) => (scores[b]! > scores[a]! ? 1 : scores[b]! < scores[a]! ? -1 : b - a));
  return order.slice(0, Math.max(0, Math.min(topK, scores.length)));
};
