/**
 * Reads a BEIR-format dataset from the texts of its files, for the browser benchmark: the same
 * records as the Node loader (`src/node/beir.ts`, which reads from disk) and messages that name
 * the file and the line and say what a BEIR file should hold. Runtime-neutral.
 *
 *   corpus.jsonl        {"_id", "title", "text", "sentences"?} per line
 *   queries*.jsonl      {"_id", "text", …} per line
 *   qrels/<split>.tsv   query-id \t corpus-id \t score   (header optional; TREC's 4 columns too)
 */
import { EvidentError } from '../core/errors';
import type { Qrels } from '../core/eval/metrics';
import { parseQrels } from '../core/eval/trec';

export interface BenchmarkDoc {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** The dataset's own sentence split of `text`, when it ships one (SciFact does). */
  readonly sentences?: readonly string[];
}

export interface BenchmarkQuery {
  readonly id: string;
  readonly text: string;
}

export interface BenchmarkDataset {
  readonly name: string;
  readonly split: string;
  readonly corpus: readonly BenchmarkDoc[];
  /** The split's queries, in qrels order. */
  readonly queries: readonly BenchmarkQuery[];
  readonly qrels: Qrels;
  /** Problems that do not stop an evaluation, in words. */
  readonly warnings: readonly string[];
}

export interface NamedText {
  readonly name: string;
  readonly text: string;
}

export interface DatasetTexts {
  readonly name: string;
  readonly split: string;
  readonly corpus: NamedText;
  /** Read in order; a later file wins on a repeated id (`queries.jsonl`, then `queries-<split>.jsonl`). */
  readonly queries: readonly NamedText[];
  readonly qrels: NamedText;
}

function invalid(message: string): EvidentError {
  return new EvidentError('invalid_input', message);
}

/** One JSON object per non-blank line, with its 1-based line number. */
function parseJsonl(file: NamedText): { line: number; record: Record<string, unknown> }[] {
  const out: { line: number; record: Record<string, unknown> }[] = [];
  file.text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((raw, i) => {
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw invalid(
          `“${file.name}” line ${i + 1} is not valid JSON. A BEIR .jsonl file has one JSON object per line.`,
        );
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw invalid(`“${file.name}” line ${i + 1} is not a JSON object. A BEIR .jsonl file has one object per line.`);
      }
      out.push({ line: i + 1, record: value as Record<string, unknown> });
    });
  return out;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v == null ? '' : String(v);
}

function idOf(record: Record<string, unknown>, file: NamedText, line: number): string {
  const id = str(record._id);
  if (id === '') throw invalid(`“${file.name}” line ${line} has no "_id". Every BEIR record needs one.`);
  return id;
}

function readCorpus(file: NamedText): BenchmarkDoc[] {
  const seen = new Map<string, number>();
  const docs = parseJsonl(file).map(({ line, record }) => {
    const id = idOf(record, file, line);
    const first = seen.get(id);
    if (first !== undefined) {
      throw invalid(`“${file.name}” has the document id "${id}" twice (lines ${first} and ${line}).`);
    }
    seen.set(id, line);
    const sentences = Array.isArray(record.sentences) ? record.sentences.map(str) : undefined;
    return { id, title: str(record.title), text: str(record.text), ...(sentences ? { sentences } : {}) };
  });
  if (docs.length === 0) throw invalid(`“${file.name}” has no documents.`);
  return docs;
}

function readQrels(file: NamedText): Qrels {
  let qrels: Qrels;
  try {
    qrels = parseQrels(file.text.replace(/^\uFEFF/, ''));
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^trec: /, '') : String(err);
    throw invalid(`“${file.name}”: ${detail} A BEIR qrels file has lines “query-id, tab, corpus-id, tab, score”.`);
  }
  if (qrels.size === 0) throw invalid(`“${file.name}” judges no queries.`);
  return qrels;
}

/** Parses and cross-checks the files; throws `invalid_input` naming the file and the line. */
export function parseBenchmarkDataset(input: DatasetTexts): BenchmarkDataset {
  const corpus = readCorpus(input.corpus);
  const qrels = readQrels(input.qrels);
  if (input.queries.length === 0) {
    throw new EvidentError(
      'dataset_missing',
      `No queries file: add queries.jsonl (or queries-${input.split}.jsonl) to the dataset.`,
    );
  }
  const byId = new Map<string, BenchmarkQuery>();
  for (const file of input.queries) {
    for (const { line, record } of parseJsonl(file)) {
      const id = idOf(record, file, line);
      byId.set(id, { id, text: str(record.text) });
    }
  }
  const names = input.queries.map((f) => `“${f.name}”`).join(' or ');
  const missing = [...qrels.keys()].filter((q) => !byId.has(q));
  if (missing.length > 0) {
    throw invalid(
      `“${input.qrels.name}” judges ${missing.length} ${missing.length === 1 ? 'query' : 'queries'} not found in ${names} (first: "${missing[0]}"). Are the files from the same dataset?`,
    );
  }

  const warnings: string[] = [];
  const docIds = new Set(corpus.map((d) => d.id));
  let judgedMissing = 0;
  let relevant = 0;
  for (const judged of qrels.values()) {
    for (const [docId, grade] of judged) {
      if (!docIds.has(docId)) judgedMissing++;
      if (grade >= 1) relevant++;
    }
  }
  if (judgedMissing > 0) {
    warnings.push(
      `${judgedMissing} judgment${judgedMissing === 1 ? ' names a document' : 's name documents'} not in “${input.corpus.name}”: they count against recall but can never be retrieved.`,
    );
  }
  if (relevant === 0) warnings.push(`“${input.qrels.name}” marks no document relevant: every score will be 0.`);
  const empty = [...qrels.keys()].filter((q) => (byId.get(q) as BenchmarkQuery).text.trim() === '').length;
  if (empty > 0) warnings.push(`${empty} judged ${empty === 1 ? 'query has' : 'queries have'} no text.`);

  return {
    name: input.name,
    split: input.split,
    corpus,
    queries: [...qrels.keys()].map((q) => byId.get(q) as BenchmarkQuery),
    qrels,
    warnings,
  };
}
