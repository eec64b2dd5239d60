/** Display formatting shared by the components. Pure functions; no locale surprises in tests. */
import { LUCENE_ENGLISH_STOPWORDS } from '../core/text/analyze';

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

/** A whole number with thousands separators ("3,804"), in English whatever the browser's locale. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en') : '–';
}

/**
 * "1 page", "2 pages", "3,804 chunks": the count and the noun agreeing with it. `many` for an
 * irregular plural ("1 match", "2 matches").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * A time left, as a person says it: "under a minute", "about 9 min", "about 1 h 20 min". Rounded
 * up to whole minutes (an estimate that runs out early reads as a broken promise).
 */
export function formatTimeLeft(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `about ${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}

/**
 * The words a keyword search looks for in `query`, as written: its word tokens less the stop words
 * the index leaves out (`LUCENE_ENGLISH_STOPWORDS`), each once. A follow-up query is a bag of words
 * ("organization much changed FY2021 FY2022"), not a sentence, and is shown as one.
 */
export function searchedWords(query: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of query.matchAll(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)) {
    const lower = m[0].toLowerCase();
    if (LUCENE_ENGLISH_STOPWORDS.has(lower) || seen.has(lower)) continue;
    seen.add(lower);
    out.push(m[0]);
  }
  return out;
}
