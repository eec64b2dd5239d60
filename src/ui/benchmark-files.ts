/**
 * Finds a BEIR dataset among the files the user chose (a folder, through `webkitdirectory`, or
 * loose files): `corpus.jsonl`, `queries.jsonl` / `queries-<split>.jsonl`, and `qrels/<split>.tsv`
 * (a loose `<split>.tsv` when files are chosen one by one). Says in words what is missing.
 */
import type { BenchmarkDatasetInput, BenchmarkFile } from '../worker/benchmark-api';

/** A chosen file and where it sits in the chosen folder (`webkitRelativePath`, or its name). */
export interface ChosenFile {
  readonly path: string;
  readonly blob: Blob;
}

export interface FoundDataset {
  /** The folder holding corpus.jsonl, or "your files" when files were chosen one by one. */
  readonly name: string;
  readonly corpus: BenchmarkFile & { readonly path: string };
  /** `queries.jsonl` when present. */
  readonly queries: (BenchmarkFile & { readonly path: string }) | null;
  /** `queries-<split>.jsonl` by split. */
  readonly splitQueries: ReadonlyMap<string, BenchmarkFile & { readonly path: string }>;
  /** qrels by split, `test` first. */
  readonly qrels: ReadonlyMap<string, BenchmarkFile & { readonly path: string }>;
  /** Chosen files that are not part of a BEIR dataset. */
  readonly ignored: number;
}

export type FindResult =
  { readonly ok: true; readonly dataset: FoundDataset } | { readonly ok: false; readonly error: string };

const LAYOUT = 'A BEIR dataset has corpus.jsonl, queries.jsonl and qrels/test.tsv.';

function parts(path: string): string[] {
  return path.split('/').filter((p) => p !== '');
}

/** Splits in display order: test, then dev, then the rest alphabetically. */
function splitOrder(a: string, b: string): number {
  const rank = (s: string): number => (s === 'test' ? 0 : s === 'dev' ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

export function findBeirDataset(files: readonly ChosenFile[]): FindResult {
  if (files.length === 0) return { ok: false, error: `No files were chosen. ${LAYOUT}` };
  const entry = (f: ChosenFile) => ({ name: parts(f.path).at(-1) ?? f.path, path: f.path, blob: f.blob });
  const corpora = files.filter((f) => parts(f.path).at(-1) === 'corpus.jsonl');
  if (corpora.length === 0) return { ok: false, error: `There is no corpus.jsonl among the chosen files. ${LAYOUT}` };
  if (corpora.length > 1) {
    return {
      ok: false,
      error: `The chosen folder holds ${corpora.length} datasets (${corpora.map((f) => f.path).join(', ')}). Choose one dataset's folder.`,
    };
  }
  const corpus = corpora[0] as ChosenFile;
  const corpusParts = parts(corpus.path);
  const name = corpusParts.length > 1 ? (corpusParts.at(-2) as string) : 'your files';

  let queries: FoundDataset['queries'] = null;
  const splitQueries = new Map<string, BenchmarkFile & { readonly path: string }>();
  const qrels = new Map<string, BenchmarkFile & { readonly path: string }>();
  let ignored = 0;
  for (const f of files) {
    if (f === corpus) continue;
    const p = parts(f.path);
    const base = p.at(-1) ?? '';
    const split = /^queries-(.+)\.jsonl$/.exec(base)?.[1];
    const inQrels = p.length === 1 || p.at(-2) === 'qrels';
    if (base === 'queries.jsonl') {
      if (queries)
        return {
          ok: false,
          error: `There are two queries.jsonl files (${queries.path}, ${f.path}). Choose one dataset's folder.`,
        };
      queries = entry(f);
    } else if (split) {
      splitQueries.set(split, entry(f));
    } else if (base.endsWith('.tsv') && inQrels) {
      const s = base.slice(0, -'.tsv'.length);
      const other = qrels.get(s);
      if (other)
        return {
          ok: false,
          error: `There are two qrels files for the split "${s}" (${other.path}, ${f.path}). Choose one dataset's folder.`,
        };
      qrels.set(s, entry(f));
    } else {
      ignored++;
    }
  }
  if (qrels.size === 0) {
    return {
      ok: false,
      error: `There is no qrels file (qrels/test.tsv: which documents answer which query). ${LAYOUT}`,
    };
  }
  if (!queries && splitQueries.size === 0) {
    return { ok: false, error: `There is no queries.jsonl among the chosen files. ${LAYOUT}` };
  }
  const sorted = new Map([...qrels].sort(([a], [b]) => splitOrder(a, b)));
  return { ok: true, dataset: { name, corpus: entry(corpus), queries, splitQueries, qrels: sorted, ignored } };
}

/** The worker's input for one split, or a message when that split has no queries file. */
export function datasetInput(found: FoundDataset, split: string): BenchmarkDatasetInput | string {
  const qrels = found.qrels.get(split);
  if (!qrels) return `There is no qrels file for the split "${split}".`;
  // queries.jsonl first, then the split's own file, which wins on a repeated id (as the CLI reads them).
  const queries = [found.queries, found.splitQueries.get(split) ?? null].filter((f) => f !== null);
  if (queries.length === 0)
    return `There are no queries for the split "${split}": add queries.jsonl or queries-${split}.jsonl.`;
  const strip = (f: BenchmarkFile & { readonly path: string }): BenchmarkFile => ({ name: f.path, blob: f.blob });
  return { name: found.name, split, corpus: strip(found.corpus), queries: queries.map(strip), qrels: strip(qrels) };
}
