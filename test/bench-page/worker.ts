/**
 * The bench worker: the same runtime-neutral code as the Node bench (`src/cli/bench-systems.ts`,
 * `src/cli/bench-fullquery.ts`), bundled by esbuild and driven step by step from Node through
 * the page (`main.ts`), so that memory can be measured between steps. Vite bundles it; data
 * comes from the driver's server: `/data/scifact.json` ({docs, queries}) and `/data/sentences.json`.
 */
import {
  benchSystems,
  syntheticChunks,
  timeSearches,
  type BenchDoc,
  type LexicalSearcher,
} from '../../src/cli/bench-systems';
import {
  buildLibrary,
  runFullQueries,
  scanReport,
  syntheticLibrary,
  type BuiltLibrary,
  type SyntheticLibrary,
} from '../../src/cli/bench-fullquery';
import { simdAvailable } from '../../src/core/dense/simd-kernel';

type Step =
  | { op: 'corpus'; corpus: 'scifact' }
  | { op: 'corpus'; corpus: 'synthetic'; n: number; queries: number }
  | { op: 'build'; system: string }
  | { op: 'query'; k: number }
  | { op: 'drop' }
  | { op: 'fq-lib'; n: number }
  | { op: 'fq-index'; dim: number }
  | { op: 'fq-run'; queries: number }
  | { op: 'scan'; n: number; dim: number; queries: number }
  | { op: 'info' };

let docs: readonly BenchDoc[] = [];
let queries: readonly string[] = [];
let scifactQueries: readonly string[] = [];
let sentences: readonly string[] | null = null;
let searcher: LexicalSearcher | null = null;
let chunkLibrary: SyntheticLibrary | null = null;
let library: BuiltLibrary | null = null;

const gc = (): void => {
  const g = (globalThis as { gc?: () => void }).gc;
  g?.();
  g?.();
};

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`bench worker: ${url} answered ${res.status}`);
  return (await res.json()) as T;
}

async function loadSentences(): Promise<readonly string[]> {
  sentences ??= await json<string[]>('/data/sentences.json');
  if (scifactQueries.length === 0) scifactQueries = (await json<{ queries: string[] }>('/data/scifact.json')).queries;
  return sentences;
}

async function run(step: Step): Promise<unknown> {
  switch (step.op) {
    case 'info':
      return { simd: simdAvailable(), cores: navigator.hardwareConcurrency, crossOriginIsolated };
    case 'corpus': {
      searcher = null;
      library = null;
      if (step.corpus === 'scifact') {
        const data = await json<{ docs: BenchDoc[]; queries: string[] }>('/data/scifact.json');
        docs = data.docs;
        queries = data.queries;
      } else {
        const s = await loadSentences();
        docs = syntheticChunks(s, step.n);
        queries = scifactQueries.slice(0, step.queries);
      }
      gc();
      return { docs: docs.length, queries: queries.length };
    }
    case 'build': {
      const system = benchSystems().find((s) => s.name === step.system);
      if (!system) throw new Error(`bench worker: unknown system ${step.system}`);
      const t = performance.now();
      searcher = await system.build(docs);
      const buildMs = performance.now() - t;
      gc();
      return { buildMs };
    }
    case 'query': {
      if (!searcher) throw new Error('bench worker: build before querying');
      return timeSearches(searcher, queries, step.k);
    }
    case 'drop':
      searcher = null;
      library = null;
      chunkLibrary = null;
      gc();
      return null;
    case 'fq-lib': {
      const s = await loadSentences();
      library = null;
      docs = [];
      chunkLibrary = syntheticLibrary(s, step.n);
      gc();
      return { chunks: chunkLibrary.chunks.length };
    }
    case 'fq-index': {
      if (!chunkLibrary) throw new Error('bench worker: fq-lib before fq-index');
      const built = buildLibrary(chunkLibrary, step.dim);
      library = built;
      gc();
      return {
        bm25BuildMs: built.bm25BuildMs,
        denseBuildMs: built.denseBuildMs,
        postingsBytes: built.postingsBytes,
        rawVectorBytes: built.rawVectorBytes,
        vectorIndexBytes: built.dense.memoryBytes,
        wasmBytes: built.dense.wasmBytes,
        simd: built.dense.simd,
      };
    }
    case 'fq-run': {
      if (!library) throw new Error('bench worker: fq-build before fq-run');
      return runFullQueries(library, scifactQueries.slice(0, step.queries));
    }
    case 'scan':
      library = null;
      gc();
      return scanReport(step.n, step.dim, step.queries);
  }
}

self.onmessage = (e: MessageEvent<Step & { id: number }>) => {
  const { id, ...step } = e.data;
  run(step as Step).then(
    (value) => self.postMessage({ id, ok: true, value }),
    (err: unknown) =>
      self.postMessage({ id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
};
