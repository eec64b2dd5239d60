import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type {
  BenchmarkDatasetInput,
  BenchmarkProgress,
  BenchmarkResult,
  BenchmarkConfigName,
} from '../worker/benchmark-api';
import { datasetInput, findBeirDataset, type ChosenFile } from './benchmark-files';
import { BenchmarkStore } from './benchmark-store';

const file = (path: string, text = 'x'): ChosenFile => ({ path, blob: new Blob([text]) });

describe('findBeirDataset', () => {
  it('finds a dataset in a chosen folder, with its splits (test first) and the files it ignores', () => {
    const found = findBeirDataset([
      file('scifact/qrels/train.tsv'),
      file('scifact/corpus.jsonl'),
      file('scifact/queries.jsonl'),
      file('scifact/queries-train.jsonl'),
      file('scifact/qrels/test.tsv'),
      file('scifact/README.md'),
      file('scifact/notes.tsv'),
    ]);
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.dataset.name).toBe('scifact');
    expect([...found.dataset.qrels.keys()]).toEqual(['test', 'train']);
    expect(found.dataset.ignored).toBe(2);
    const train = datasetInput(found.dataset, 'train') as BenchmarkDatasetInput;
    // queries.jsonl, then the split's own file (it wins on a repeated id, as in the CLI).
    expect(train.queries.map((q) => q.name)).toEqual(['scifact/queries.jsonl', 'scifact/queries-train.jsonl']);
    expect(train.qrels.name).toBe('scifact/qrels/train.tsv');
    expect((datasetInput(found.dataset, 'test') as BenchmarkDatasetInput).queries).toHaveLength(1);
  });

  it('accepts the three files chosen one by one', () => {
    const found = findBeirDataset([file('corpus.jsonl'), file('queries.jsonl'), file('test.tsv')]);
    expect(found.ok && found.dataset.name).toBe('your files');
    expect(found.ok && [...found.dataset.qrels.keys()]).toEqual(['test']);
  });

  it('says what is missing or ambiguous, in words', () => {
    const error = (files: ChosenFile[]): string => {
      const r = findBeirDataset(files);
      return r.ok ? 'ok' : r.error;
    };
    expect(error([])).toMatch(/^No files were chosen\./);
    expect(error([file('d/queries.jsonl'), file('d/qrels/test.tsv')])).toMatch(/^There is no corpus\.jsonl/);
    expect(error([file('d/corpus.jsonl'), file('d/queries.jsonl')])).toMatch(/^There is no qrels file/);
    expect(error([file('d/corpus.jsonl'), file('d/qrels/test.tsv')])).toMatch(/^There is no queries\.jsonl/);
    expect(error([file('a/corpus.jsonl'), file('b/corpus.jsonl')])).toBe(
      "The chosen folder holds 2 datasets (a/corpus.jsonl, b/corpus.jsonl). Choose one dataset's folder.",
    );
    // A split with only a split-specific queries file for another split.
    const r = findBeirDataset([file('d/corpus.jsonl'), file('d/queries-train.jsonl'), file('d/qrels/test.tsv')]);
    expect(r.ok && datasetInput(r.dataset, 'test')).toBe(
      'There are no queries for the split "test": add queries.jsonl or queries-test.jsonl.',
    );
  });
});

const RESULT: BenchmarkResult = {
  dataset: { name: 'd', split: 'test', documents: 1, queries: 1, judgments: 1 },
  depth: 1000,
  embedderId: null,
  configs: [],
  warnings: [],
};

/** A scripted worker client: the store is the unit under test. */
function fakeClient(behaviour: 'resolve' | 'hang' | 'fail') {
  const calls: { configs: readonly BenchmarkConfigName[]; signal?: AbortSignal }[] = [];
  return {
    calls,
    client: {
      runBenchmark: (
        _dataset: BenchmarkDatasetInput,
        opts: {
          signal?: AbortSignal;
          configs: readonly BenchmarkConfigName[];
          onProgress?: (p: BenchmarkProgress) => void;
        },
      ): Promise<BenchmarkResult> => {
        calls.push({ configs: opts.configs, signal: opts.signal });
        opts.onProgress?.({ stage: 'read', config: null, done: 0, total: 3 });
        if (behaviour === 'fail')
          return Promise.reject(new EvidentError('invalid_input', '“corpus.jsonl” line 3 is not valid JSON.'));
        return new Promise((resolve, reject) => {
          opts.signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Cancelled.')));
          if (behaviour === 'resolve') {
            resolve(RESULT);
            // Progress sent just before the result may be delivered after it.
            setTimeout(() => opts.onProgress?.({ stage: 'search', config: 'bm25', done: 1, total: 2 }), 0);
          }
        });
      },
    },
  };
}

const DATASET = [file('d/corpus.jsonl'), file('d/queries.jsonl'), file('d/qrels/test.tsv')];
const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
};

describe('BenchmarkStore', () => {
  it('runs the chosen configurations and keeps the result when progress arrives late', async () => {
    const f = fakeClient('resolve');
    const store = new BenchmarkStore(f.client);
    store.choose(DATASET);
    expect(store.getState()).toMatchObject({ split: 'test', pickError: null });
    store.toggleConfig('rrf', true);
    store.toggleConfig('dense', false);
    expect(store.getState().configs).toEqual(['bm25', 'weighted', 'rrf']);
    await store.start();
    await settle();
    expect(f.calls[0]!.configs).toEqual(['bm25', 'weighted', 'rrf']);
    expect(store.getState().run).toMatchObject({ phase: 'done', result: RESULT });
  });

  it('shows progress while running; cancel makes it a quiet "cancelled"', async () => {
    const f = fakeClient('hang');
    const store = new BenchmarkStore(f.client);
    store.choose(DATASET);
    const run = store.start(['bm25']);
    expect(store.getState().run).toEqual({
      phase: 'running',
      progress: { stage: 'read', config: null, done: 0, total: 3 },
    });
    // A new choice of files is ignored while a run is in flight.
    store.choose([file('x.txt')]);
    expect(store.getState().pickError).toBeNull();
    store.cancel();
    await run;
    expect(f.calls[0]!.signal!.aborted).toBe(true);
    expect(store.getState().run).toEqual({ phase: 'cancelled' });
  });

  it('shows the worker’s message for bad files, and the reason when the files are not a dataset', async () => {
    const f = fakeClient('fail');
    const store = new BenchmarkStore(f.client);
    store.choose(DATASET);
    await store.start();
    expect(store.getState().run).toEqual({
      phase: 'error',
      error: { code: 'invalid_input', message: '“corpus.jsonl” line 3 is not valid JSON.' },
    });
    store.choose([file('notes.txt')]);
    expect(store.getState()).toMatchObject({ dataset: null, run: { phase: 'idle' } });
    expect(store.getState().pickError).toMatch(/no corpus\.jsonl/);
  });
});
