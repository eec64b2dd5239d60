/**
 * Worker of the batch ingest benchmark: the app's ingest path as the app's worker runs it — USE
 * lite loaded by `loadUseLite` (WASM here), an `Engine` on a fresh IndexedDB `Library` (the ingest
 * queue included), `ingestFiles` with the self-hosted pdf.js assets — timed from the call ("drop")
 * to each file stored and searchable by its words, and to the call's end (every file embedded).
 */
import * as Comlink from 'comlink';
import type { Embedder } from '../../../src/models/embedder';
import { Library } from '../../../src/storage/library';
import type { FileInput } from '../../../src/worker/ask-api';
import { Engine } from '../../../src/worker/engine';
import { ingestFiles } from '../../../src/worker/ingest-files';
import { loadUseLite } from '../../../src/worker/load-use';

export interface IngestBenchRun {
  readonly overlap: boolean;
  readonly files: number;
  readonly failed: number;
  readonly chunks: number;
  /** ms from the call to the first and to the last file searchable by its words. */
  readonly firstSearchableMs: number;
  readonly allSearchableMs: number;
  /** ms from the call to its end: every file embedded. */
  readonly embeddedMs: number;
  /** A search during the batch, once the last file was stored: ms, and whether it found the last file. */
  readonly searchMs: number;
  readonly lastFileFound: boolean;
}

const base = new URL('/', self.location.origin);
let embedder: Embedder | null = null;
let runs = 0;

const api = {
  async load(): Promise<string> {
    const loaded = await loadUseLite({
      modelUrl: new URL('models/use-lite/', base),
      wasmUrl: new URL('vendor/tfjs/', base),
      backends: ['wasm'],
    });
    embedder = loaded.embedder;
    return loaded.info.backend.reason;
  },

  async run(files: FileInput[], overlap: boolean, probe = 'study results'): Promise<IngestBenchRun> {
    if (!embedder) throw new Error('load() first');
    const dbName = `evident-ingest-bench-${Date.now()}-${runs++}`;
    const library = await Library.open({ name: dbName });
    const engine = new Engine();
    engine.attachStore(library);
    engine.setEmbedder(embedder);
    const stored: number[] = [];
    let search: Promise<{ ms: number; found: boolean }> | null = null;
    const lastDoc = `file:${files.at(-1)?.name ?? ''}`;
    const t0 = performance.now();
    try {
      const result = await ingestFiles(engine, files, {
        overlap,
        queue: library,
        cMapUrl: new URL('vendor/pdfjs/cmaps/', base).href,
        standardFontDataUrl: new URL('vendor/pdfjs/standard_fonts/', base).href,
        onStored: (docId) => {
          stored.push(performance.now() - t0);
          if (docId === lastDoc) {
            const t1 = performance.now();
            search = engine.search(probe, { k: 100 }).then((r) => ({
              ms: performance.now() - t1,
              found: r.hits.some((h) => h.docId === lastDoc),
            }));
          }
        },
      });
      const embeddedMs = performance.now() - t0;
      const during = (await (search as Promise<{ ms: number; found: boolean }> | null)) ?? { ms: NaN, found: false };
      return {
        overlap,
        files: files.length,
        failed: result.files.filter((f) => !f.ok).length,
        chunks: engine.chunkCount,
        firstSearchableMs: stored[0] ?? NaN,
        allSearchableMs: stored.at(-1) ?? NaN,
        embeddedMs,
        searchMs: during.ms,
        lastFileFound: during.found,
      };
    } finally {
      library.close();
      indexedDB.deleteDatabase(dbName);
    }
  },
};

export type IngestBenchApi = typeof api;
Comlink.expose(api);
