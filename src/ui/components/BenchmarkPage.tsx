import { useId, useSyncExternalStore, type ChangeEvent, type ReactNode } from 'react';
import { METRIC_NAMES, type MetricName } from '../../core/eval/metrics';
import {
  BENCHMARK_CONFIGS,
  type BenchmarkConfigName,
  type BenchmarkProgress,
  type BenchmarkResult,
} from '../../worker/benchmark-api';
import type { ChosenFile } from '../benchmark-files';
import type { BenchmarkStore } from '../benchmark-store';
import { formatBytes, plural } from '../format';
import { ProgressBar } from './ProgressBar';

interface Props {
  readonly store: BenchmarkStore;
  /** The dense configurations need the embedding model. */
  readonly modelReady: boolean;
}

/** Column headings as `npm run eval` prints them. */
export const METRIC_LABEL: Readonly<Record<MetricName, string>> = Object.freeze({
  'ndcg@10': 'nDCG@10',
  'recall@10': 'R@10',
  'recall@100': 'R@100',
  'mrr@10': 'MRR@10',
  map: 'MAP',
  'p@10': 'P@10',
});

const CONFIG_LABEL: Readonly<Record<BenchmarkConfigName, string>> = Object.freeze({
  bm25: 'BM25 (stemmed)',
  'bm25-nostem': 'BM25 (no stemming)',
  dense: 'Dense (embedder alone)',
  weighted: 'Weighted fusion (the app’s)',
  rrf: 'Reciprocal rank fusion',
});

const DENSE: ReadonlySet<BenchmarkConfigName> = new Set(['dense', 'weighted', 'rrf']);

const STAGE_LABEL: Readonly<Record<BenchmarkProgress['stage'], string>> = Object.freeze({
  read: 'Reading the files',
  index: 'Building the BM25 index',
  embed: 'Embedding the corpus and the queries',
  search: 'Searching every query',
  evaluate: 'Scoring against the judgments',
});

/** The files of an <input type="file">, each with its path inside the chosen folder. */
function chosenFiles(input: HTMLInputElement): ChosenFile[] {
  return [...(input.files ?? [])].map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
}

/**
 * Benchmark: retrieval quality on a BEIR-format dataset the user loads, measured in this tab
 * with the same configurations, metrics and table as `npm run eval`, plus two charts. The
 * evaluation runs in the worker on its own indexes; the library is not touched.
 */
export function BenchmarkPage({ store, modelReady }: Props) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const id = useId();
  const running = state.run.phase === 'running';
  const onFiles = (e: ChangeEvent<HTMLInputElement>): void => {
    const files = chosenFiles(e.target);
    e.target.value = '';
    store.choose(files);
  };
  const usable = state.configs.filter((c) => modelReady || !DENSE.has(c));
  const { dataset } = state;
  return (
    <div className="benchmark-page">
      <section className="panel" aria-labelledby={`${id}-load`}>
        <h2 id={`${id}-load`}>Dataset</h2>
        <p className="muted">
          Measure how well retrieval finds the right documents on a dataset of your own, with the metrics and
          configurations of <code>npm run eval</code>. A BEIR-format dataset is a folder with <code>corpus.jsonl</code>,{' '}
          <code>queries.jsonl</code> and <code>qrels/test.tsv</code>. It is read in this tab and indexed on its own:
          your library is not changed.
        </p>
        <div className="inline-row">
          <label className={`file-button${running ? ' file-button-disabled' : ''}`}>
            <span>Choose a dataset folder</span>
            <input
              className="visually-hidden"
              type="file"
              aria-label="Dataset folder"
              disabled={running}
              onChange={onFiles}
              {...{ webkitdirectory: '', directory: '' }}
            />
          </label>
          <label className={`file-button secondary-file${running ? ' file-button-disabled' : ''}`}>
            <span>or choose its files</span>
            <input
              className="visually-hidden"
              type="file"
              multiple
              accept=".jsonl,.tsv"
              aria-label="Dataset files"
              disabled={running}
              onChange={onFiles}
            />
          </label>
        </div>
        {state.pickError && (
          <p className="error" role="alert" data-testid="benchmark-pick-error">
            {state.pickError}
          </p>
        )}
        {dataset && (
          <div className="benchmark-found" data-testid="benchmark-found">
            <p>
              <strong>{dataset.name}</strong>: {dataset.corpus.path} ({formatBytes(dataset.corpus.blob.size)})
              {dataset.queries && `, ${dataset.queries.path}`}
              {[...dataset.splitQueries.values()].map((f) => `, ${f.path}`)}
              {[...dataset.qrels.values()].map((f) => `, ${f.path}`)}
              {dataset.ignored > 0 && (
                <span className="muted">
                  {' '}
                  ({dataset.ignored} other file{dataset.ignored === 1 ? '' : 's'} ignored)
                </span>
              )}
            </p>
            {dataset.qrels.size > 1 && (
              <div className="field">
                <label htmlFor={`${id}-split`}>Split</label>
                <select
                  id={`${id}-split`}
                  value={state.split ?? ''}
                  disabled={running}
                  onChange={(e) => store.setSplit(e.target.value)}
                >
                  {[...dataset.qrels.keys()].map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby={`${id}-run`}>
        <h2 id={`${id}-run`}>Run</h2>
        <fieldset className="field benchmark-configs">
          <legend>Configurations</legend>
          {BENCHMARK_CONFIGS.map((c) => {
            const needsModel = DENSE.has(c) && !modelReady;
            return (
              <label key={c} className="check">
                <input
                  type="checkbox"
                  checked={state.configs.includes(c)}
                  disabled={running || needsModel}
                  onChange={(e) => store.toggleConfig(c, e.target.checked)}
                />{' '}
                {CONFIG_LABEL[c]} <code>{c}</code>
                {needsModel && <span className="muted"> (once the model has loaded)</span>}
              </label>
            );
          })}
        </fieldset>
        <div className="inline-row">
          <button
            type="button"
            disabled={running || !dataset || usable.length === 0}
            onClick={() => {
              // Dense configurations chosen before the model loaded are left out, not failed.
              void store.start(usable);
            }}
          >
            Run the benchmark
          </button>
          {running && (
            <button type="button" className="secondary" onClick={() => store.cancel()}>
              Cancel
            </button>
          )}
        </div>
        <div role="status" aria-live="polite" className="benchmark-status" data-testid="benchmark-status">
          {state.run.phase === 'running' && <RunProgress progress={state.run.progress} />}
          {state.run.phase === 'cancelled' && <p className="muted">Cancelled.</p>}
          {state.run.phase === 'done' && <p className="muted">Done in {(state.run.ms / 1000).toFixed(1)} s.</p>}
        </div>
        {state.run.phase === 'error' && (
          <p className="error" role="alert" data-testid="benchmark-error">
            {state.run.error.message}
          </p>
        )}
      </section>

      {state.run.phase === 'done' && <Results result={state.run.result} />}
    </div>
  );
}

function RunProgress({ progress }: { readonly progress: BenchmarkProgress | null }) {
  if (!progress) return <p className="muted">Starting…</p>;
  const label = `${STAGE_LABEL[progress.stage]}${progress.config ? ` (${progress.config})` : ''}`;
  return (
    <>
      <p className="muted">{label}…</p>
      <ProgressBar label={label} done={progress.done} total={progress.total} />
    </>
  );
}

function Results({ result }: { readonly result: BenchmarkResult }) {
  const id = useId();
  const { dataset } = result;
  return (
    <section className="panel benchmark-results" aria-labelledby={`${id}-results`} data-testid="benchmark-results">
      <h2 id={`${id}-results`}>Results</h2>
      <p className="muted">
        {dataset.name} / {dataset.split}: {plural(dataset.documents, 'document')},{' '}
        {plural(dataset.queries, 'query', 'queries')}, {plural(dataset.judgments, 'judgment')};{' '}
        {plural(result.depth, 'hit')} per query
        {result.embedderId && `; dense: ${result.embedderId}`}. Means over the queries, as <code>npm run eval</code>{' '}
        computes them.
      </p>
      {result.warnings.length > 0 && (
        <ul className="benchmark-warnings" data-testid="benchmark-warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-table`}>
        <table className="benchmark-table" data-testid="benchmark-table">
          <caption id={`${id}-table`}>
            Retrieval quality on {dataset.name} / {dataset.split}
          </caption>
          <thead>
            <tr>
              <th scope="col">config</th>
              {METRIC_NAMES.map((m) => (
                <th key={m} scope="col">
                  {METRIC_LABEL[m]}
                </th>
              ))}
              <th scope="col">time</th>
            </tr>
          </thead>
          <tbody>
            {result.configs.map((c) => (
              <tr key={c.name} data-config={c.name}>
                <th scope="row" title={c.description}>
                  {c.name}
                </th>
                {METRIC_NAMES.map((m) => (
                  <td key={m} data-metric={m} data-value={c.metrics[m]}>
                    {c.metrics[m].toFixed(4)}
                  </td>
                ))}
                <td className="muted">{(c.ms / 1000).toFixed(1)} s</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="benchmark-charts">
        <MetricBars result={result} />
        <QueryCurves result={result} />
      </div>
    </section>
  );
}

/** The headline metrics, one group of bars per configuration (0 to 1). */
const BAR_METRICS: readonly MetricName[] = ['ndcg@10', 'recall@10', 'recall@100', 'mrr@10'];
const W = 420;
const H = 220;
const PAD = { left: 36, right: 8, top: 10, bottom: 28 };

/** The colours of a chart's series, in the order drawn (the SVG says the same in its description). */
function Legend({ items, kind }: { readonly items: readonly string[]; readonly kind: 'bar' | 'curve' }) {
  return (
    <ul className="chart-legend" aria-hidden="true">
      {items.map((item, j) => (
        <li key={item}>
          <span className={`swatch ${kind}-${j}`} /> {item}
        </li>
      ))}
    </ul>
  );
}

const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
/** Vertical position of a score in [0, 1] (clamped): 1 at the top of the plot. */
const yOf = (v: number): number => PAD.top + (1 - Math.max(0, Math.min(1, v))) * PLOT_H;

/**
 * What both charts share: a figure with an SVG labelled by its title and a text description (what
 * a screen reader reads instead of the drawing), grid lines at 0, 0.5 and 1, the x axis, a
 * legend and a caption. `children` draws the series.
 */
function ChartFrame({
  testId,
  title,
  description,
  legend,
  caption,
  children,
}: {
  readonly testId: string;
  readonly title: string;
  readonly description: string;
  readonly legend: ReactNode;
  readonly caption: string;
  readonly children: ReactNode;
}) {
  const id = useId();
  return (
    <figure className="benchmark-chart" data-testid={testId}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {[0, 0.5, 1].map((v) => (
          <g key={v}>
            <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={yOf(v)} y2={yOf(v)} />
            <text className="tick" x={PAD.left - 4} y={yOf(v) + 4} textAnchor="end">
              {v.toFixed(1)}
            </text>
          </g>
        ))}
        {children}
        <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + PLOT_H} y2={PAD.top + PLOT_H} />
      </svg>
      {legend}
      <figcaption className="muted">{caption}</figcaption>
    </figure>
  );
}

/** Grouped bars of nDCG@10, R@10, R@100 and MRR@10 per configuration: a hand-drawn SVG. */
export function MetricBars({ result }: { readonly result: BenchmarkResult }) {
  const n = result.configs.length;
  const group = PLOT_W / Math.max(1, n);
  const bar = Math.min(18, (group * 0.8) / BAR_METRICS.length);
  const description = result.configs
    .map((c) => `${c.name}: ${BAR_METRICS.map((m) => `${METRIC_LABEL[m]} ${c.metrics[m].toFixed(3)}`).join(', ')}`)
    .join('; ');
  return (
    <ChartFrame
      testId="benchmark-chart"
      title="Headline metrics per configuration"
      description={description}
      legend={<Legend items={BAR_METRICS.map((m) => METRIC_LABEL[m])} kind="bar" />}
      caption="Higher is better; the table above has the exact values."
    >
      {result.configs.map((c, i) => {
        const x0 = PAD.left + i * group + (group - bar * BAR_METRICS.length) / 2;
        return (
          <g key={c.name} data-config={c.name}>
            {BAR_METRICS.map((m, j) => (
              <rect
                key={m}
                className={`bar bar-${j}`}
                x={x0 + j * bar}
                y={yOf(c.metrics[m])}
                width={bar - 1}
                height={PAD.top + PLOT_H - yOf(c.metrics[m])}
              />
            ))}
            <text className="tick" x={PAD.left + (i + 0.5) * group} y={H - PAD.bottom + 16} textAnchor="middle">
              {c.name}
            </text>
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** Each configuration's per-query nDCG@10, sorted highest first: where it wins and where it fails. */
export function QueryCurves({ result }: { readonly result: BenchmarkResult }) {
  const q = result.dataset.queries;
  const x = (i: number): number => PAD.left + (q <= 1 ? 0 : (i / (q - 1)) * PLOT_W);
  const description = result.configs
    .map((c) => {
      const zero = c.ndcgByQuery.filter((v) => v === 0).length;
      return `${c.name}: ${zero} of ${c.ndcgByQuery.length} queries score 0`;
    })
    .join('; ');
  return (
    <ChartFrame
      testId="benchmark-curves"
      title="nDCG@10 of every query, sorted"
      description={description}
      legend={<Legend items={result.configs.map((c) => c.name)} kind="curve" />}
      caption="Queries sorted by their own score, best first, per configuration."
    >
      {result.configs.map((c, j) => (
        <path
          key={c.name}
          className={`curve curve-${j}`}
          fill="none"
          d={c.ndcgByQuery.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${yOf(v).toFixed(1)}`).join(' ')}
        />
      ))}
      <text className="tick" x={PAD.left} y={H - 8}>
        query 1
      </text>
      <text className="tick" x={W - PAD.right} y={H - 8} textAnchor="end">
        {q}
      </text>
    </ChartFrame>
  );
}
