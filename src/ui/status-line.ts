/**
 * The status strip's lines: what is being done now, derived from the same state as the rest of the
 * page (the library's documents with their vector counts, the files' jobs, the model), so that no
 * status text on a screen contradicts another. Pure: tested without React.
 *
 * One line per kind of work in progress, in the order a person waits for them:
 * - `model`: the embedding model loading ("Loading the embedding model · 12.0 MB of 27.1 MB");
 * - `read`: a file being read ("Reading “x.pdf” · page 120 / 252 · 1 more file waiting");
 * - `batch`: a batch the app adds on its own (the demo, a resumed one);
 * - `vectors`: the document whose meaning vectors are being computed, already searchable by its
 *   words ("Annual report — searchable · computing meaning vectors 276 / 3,804 · about 9 min
 *   left"), the time left counting every document still without all its vectors.
 * No line: nothing is in progress.
 */
import type { EmbeddingStatus, LibraryDocument } from '../worker/api';
import { formatBytes, formatCount, formatTimeLeft, plural } from './format';
import type { IngestJob } from './ingest-store';
import type { LibraryState, ModelState } from './session';

export type StatusKind = 'model' | 'read' | 'batch' | 'vectors';

export interface StatusLine {
  readonly kind: StatusKind;
  readonly text: string;
  /** The document a `vectors` line is about, with the counts it states. */
  readonly docId?: string;
  readonly vectors?: number;
  readonly chunks?: number;
}

export interface StatusInput {
  readonly model: ModelState;
  readonly library: LibraryState;
  readonly jobs: readonly IngestJob[];
  readonly embedding: EmbeddingStatus;
}

const READING_PHASES = new Set(['parse', 'ocr', 'chunk']);

/** The documents the page lists (during a batch the app adds, those stored so far). */
export function listedDocuments(library: LibraryState): readonly LibraryDocument[] {
  return library.phase === 'ready' ? library.documents : library.phase === 'ingesting' ? (library.documents ?? []) : [];
}

/** Chunks of `doc` still without a vector of the current model (0 when it does not say). */
export function missingVectors(doc: LibraryDocument): number {
  return doc.vectors === undefined ? 0 : Math.max(0, doc.chunks - doc.vectors);
}

export function statusLines({ model, library, jobs, embedding }: StatusInput): StatusLine[] {
  const lines: StatusLine[] = [];
  if (model.phase === 'loading') {
    const p = model.progress;
    lines.push({
      kind: 'model',
      text:
        p.totalBytes > 0 && p.phase === 'download'
          ? `Loading the embedding model · ${formatBytes(p.loadedBytes)} of ${formatBytes(p.totalBytes)}`
          : 'Loading the embedding model',
    });
  }

  const reading = jobs.filter((j) => j.status === 'working' && j.phase !== null && READING_PHASES.has(j.phase));
  const waiting = jobs.filter((j) => j.status === 'waiting').length;
  if (reading.length > 0) {
    const job = reading[0] as IngestJob;
    const where =
      job.phase === 'parse' && job.total > 0
        ? ` · page ${formatCount(job.done)} / ${formatCount(job.total)}`
        : job.phase === 'ocr' && job.total > 0
          ? ` · reading scanned page ${formatCount(job.done)} / ${formatCount(job.total)} (OCR)`
          : job.phase === 'chunk'
            ? ' · splitting into passages'
            : '';
    const more = reading.length - 1 + waiting;
    lines.push({
      kind: 'read',
      text: `Reading “${job.name}”${where}${more > 0 ? ` · ${plural(more, 'more file')} waiting` : ''}`,
    });
  } else if (waiting > 0) {
    lines.push({ kind: 'read', text: `${plural(waiting, 'file')} waiting to be read` });
  }

  if (library.phase === 'ingesting') {
    lines.push({
      kind: 'batch',
      text: `Adding “${library.title}” (${library.index + 1} of ${library.count})`,
    });
  }

  const docs = listedDocuments(library);
  const pending = docs.filter((d) => missingVectors(d) > 0);
  if (pending.length > 0) {
    // The document in flight, else the first waiting (the worker embeds in the order they came).
    const doc = pending.find((d) => d.docId === embedding.docId) ?? (pending[0] as LibraryDocument);
    const vectors = doc.vectors ?? 0;
    const left = pending.reduce((s, d) => s + missingVectors(d), 0);
    const rest = pending.length - 1;
    const parts = [`${doc.title} — searchable`];
    if (model.phase === 'error') parts.push('meaning vectors wait for the embedding model');
    else parts.push(`computing meaning vectors ${formatCount(vectors)} / ${formatCount(doc.chunks)}`);
    if (rest > 0) parts.push(`${plural(rest, 'more document')} after it`);
    if (model.phase === 'ready' && embedding.rate !== null && embedding.rate > 0) {
      parts.push(`${formatTimeLeft((left / embedding.rate) * 1000)} left`);
    }
    lines.push({ kind: 'vectors', text: parts.join(' · '), docId: doc.docId, vectors, chunks: doc.chunks });
  }
  return lines;
}

/** The library as a whole, in one line: "6 documents · 5,340 chunks · 2,401 with meaning vectors (45 %)". */
export function libraryTotals(docs: readonly LibraryDocument[]): string {
  const chunks = docs.reduce((s, d) => s + d.chunks, 0);
  const vectors = docs.reduce((s, d) => s + Math.min(d.chunks, d.vectors ?? d.chunks), 0);
  const parts = [plural(docs.length, 'document'), plural(chunks, 'chunk')];
  if (chunks > 0) {
    parts.push(
      vectors === chunks
        ? 'all with meaning vectors'
        : `${formatCount(vectors)} with meaning vectors (${Math.floor((vectors / chunks) * 100)} %)`,
    );
  }
  return parts.join(' · ');
}
