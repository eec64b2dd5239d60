/**
 * Mulberry32 (Tommy Ettinger, public domain): a tiny seeded PRNG, uniform in [0, 1). Benchmarks,
 * fitting scripts and generated test models use it so every run sees the same numbers.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `rows` seeded random unit vectors of `dim` components, row-major (benchmarks and tests). */
export function randomUnitVectors(rows: number, dim: number, seed: number): Float32Array {
  const rand = mulberry32(seed);
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let norm = 0;
    const base = r * dim;
    for (let j = 0; j < dim; j++) {
      const v = rand() * 2 - 1;
      out[base + j] = v;
      norm += v * v;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) out[base + j] = (out[base + j] as number) * inv;
  }
  return out;
}
