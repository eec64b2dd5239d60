/** Display formatting shared by the components. Pure functions; no locale surprises in tests. */

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Whole percent of `done / total`, clamped to 0…100; 0 when the total is unknown. */
export function percent(done: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((done / total) * 100)));
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** Scores: 4 significant decimals for small values (RRF scores are ~0.016), fewer for large. */
export function formatScore(score: number | undefined): string {
  if (score === undefined || !Number.isFinite(score)) return '–';
  return Math.abs(score) >= 10 ? score.toFixed(2) : score.toFixed(4);
}
