/**
 * Shared by the session tests (`src/ui/session*.test.ts`): the fake worker's model info and the
 * library side of a scripted worker client, whose storage is the list of added document ids.
 */
import type { AddDocumentsResult, EmbedderInfo, LibraryDocument, LibraryInfo, WorkerStatus } from '../src/worker/api';

export const FAKE_EMBEDDER: EmbedderInfo = {
  id: 'fake',
  dim: 2,
  maxTokens: 8,
  backend: { name: 'wasm', threads: 1, simd: true, crossOriginIsolated: true, reason: 'test' },
  bytes: 10,
  downloadMs: 1,
  initMs: 1,
  warmupMs: 1,
};

/** Lets queued macrotasks (late progress events, timers of 0 ms) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/**
 * The client calls that read the fake library: every id in `added` is a stored document of one
 * chunk and one vector. `library` overrides fields of `openLibrary`'s answer at each call.
 */
export function fakeLibraryCalls(added: readonly string[], library: () => Partial<LibraryInfo> = () => ({})) {
  const stored = (): LibraryDocument[] =>
    added.map((docId) => ({ docId, title: docId, chunks: 1, sourceType: 'unknown', status: 'current', vectors: 1 }));
  return {
    openLibrary: async (): Promise<LibraryInfo> => ({
      persistent: true,
      storageError: null,
      documents: stored(),
      chunks: added.length,
      vectors: added.length,
      queued: 0,
      demoInstalled: false,
      skipped: [],
      lexical: 'empty',
      timings: { openMs: 1, readMs: 1, lexicalMs: 1, searchableMs: 1, vectorsMs: 1, loadedMs: 1 },
      ...library(),
    }),
    resumeIngest: async (): Promise<AddDocumentsResult> => ({ added: [], failed: [] }),
    fillVectors: async () => ({ documents: 0, chunks: 0, ms: 0 }),
    status: async (): Promise<WorkerStatus> => ({
      embedder: FAKE_EMBEDDER,
      documents: stored(),
      chunks: added.length,
      crossOriginIsolated: true,
    }),
  };
}
