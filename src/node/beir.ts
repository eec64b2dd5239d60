/**
 * Loader for datasets in the BEIR layout (Thakur et al. 2021):
 *   corpus.jsonl            {_id, title, text, ...}
 *   queries.jsonl           {_id, text, ...}   and/or   queries-<split>.jsonl
 *   qrels/<split>.tsv       query-id \t corpus-id \t score   (header line)
 *
 * SciFact keeps its test claims in `queries.jsonl` and its train claims in `queries-train.jsonl`;
 * MuSiQue has only `queries.jsonl` with extra fields (answer, hops). Both layouts work: every
 * queries file present is read (the split-specific one wins on a repeated id) and the queries of
 * the split are exactly those its qrels list.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EvidentError } from '../core/errors';
import type { Qrels } from '../core/eval/metrics';
import { parseQrels } from '../core/eval/trec';

export interface BeirDoc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** Sentence split of `text` when the dataset ships one (SciFact does). */
  readonly sentences?: readonly string[];
}

export interface BeirQuery {
  readonly id: string;
  readonly text: string;
  /** Other fields of the query record (MuSiQue: answer, answer_aliases, hops). */
  readonly meta: Readonly<Record<string, unknown>>;
}

export interface BeirDataset {
  /** Folder name, e.g. "scifact". */
  readonly name: string;
  readonly dir: string;
  readonly split: string;
  readonly corpus: readonly BeirDoc[];
  /** The split's queries in qrels order. */
  readonly queries: readonly BeirQuery[];
  readonly qrels: Qrels;
}

async function readRequired(file: string): Promise<string> {
  if (!existsSync(file)) {
    throw new EvidentError(
      'dataset_missing',
      `Dataset file not found: ${file}. Point --dataset at a BEIR folder (corpus.jsonl, queries*.jsonl, qrels/<split>.tsv), e.g. ../shared/datasets/scifact.`,
    );
  }
  return readFile(file, 'utf8');
}

function parseJsonl(text: string, file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      throw new EvidentError('invalid_input', `${file}:${i + 1} is not valid JSON.`);
    }
  });
  return out;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : String(v);
}

/** Reads the corpus only (for building an index without queries). */
export async function loadBeirCorpus(dir: string): Promise<BeirDoc[]> {
  const file = path.join(dir, 'corpus.jsonl');
  return parseJsonl(await readRequired(file), file).map((r) => {
    const sentences = Array.isArray(r.sentences) ? r.sentences.map(str) : undefined;
    return { id: str(r._id), title: str(r.title), text: str(r.text), ...(sentences ? { sentences } : {}) };
  });
}

/** Loads corpus, the split's queries and qrels. Missing files throw `dataset_missing` naming the path. */
export async function loadBeir(dir: string, split = 'test'): Promise<BeirDataset> {
  const root = path.resolve(dir);
  if (!existsSync(root)) {
    throw new EvidentError(
      'dataset_missing',
      `Dataset folder not found: ${root}. Is ../shared mounted beside the checkout?`,
    );
  }
  const qrelsFile = path.join(root, 'qrels', `${split}.tsv`);
  const qrels = parseQrels(await readRequired(qrelsFile));
  const corpus = await loadBeirCorpus(root);

  const queryFiles = [path.join(root, 'queries.jsonl'), path.join(root, `queries-${split}.jsonl`)].filter((f) =>
    existsSync(f),
  );
  if (queryFiles.length === 0) {
    throw new EvidentError(
      'dataset_missing',
      `No queries file in ${root}: expected queries.jsonl or queries-${split}.jsonl.`,
    );
  }
  const byId = new Map<string, BeirQuery>();
  for (const file of queryFiles) {
    for (const r of parseJsonl(await readFile(file, 'utf8'), file)) {
      const { _id, text, ...meta } = r;
      byId.set(str(_id), { id: str(_id), text: str(text), meta });
    }
  }
  const missing = [...qrels.keys()].filter((q) => !byId.has(q));
  if (missing.length > 0) {
    throw new EvidentError(
      'dataset_missing',
      `${qrelsFile} judges ${missing.length} queries not found in ${queryFiles.join(' or ')} (first: "${missing[0]}").`,
    );
  }
  const queries = [...qrels.keys()].map((q) => byId.get(q) as BeirQuery);
  return { name: path.basename(root), dir: root, split, corpus, queries, qrels };
}
