import type { ReactNode } from 'react';
import type { EmbedderInfo } from '../../worker/api';
import type { ModelState } from '../session';
import { formatBytes, formatMs } from '../format';
import { ProgressBar } from './ProgressBar';

interface Props {
  readonly model: ModelState;
  readonly pageIsolated: boolean;
}

const PHASE_LABEL = {
  download: 'Downloading the embedding model from this site',
  verify: 'Checking the downloaded files',
  init: 'Starting the model',
  ready: 'Model ready',
} as const;

/**
 * The embedding model in one line on the Library page: loading (with its progress), ready, or
 * why it failed. Which runtime runs it, and why, is a developer's detail: Settings → Device, under
 * "Details" (`BackendFacts`). The data attributes carry the facts for tests and benchmarks.
 */
export function ModelStatus({ model, pageIsolated }: Props) {
  const info = model.phase === 'ready' ? model.info : null;
  return (
    <div
      className="model-status"
      data-testid="model-status"
      data-state={model.phase}
      data-backend={info?.backend.name}
      data-threads={info?.backend.threads}
      data-isolated={info ? (info.backend.crossOriginIsolated ? 'yes' : 'no') : undefined}
      data-page-isolated={pageIsolated ? 'yes' : 'no'}
      data-download-ms={info ? Math.round(info.downloadMs) : undefined}
      data-init-ms={info ? Math.round(info.initMs) : undefined}
      data-warmup-ms={info ? Math.round(info.warmupMs) : undefined}
    >
      {model.phase === 'idle' && <p className="muted">Starting the embedding model…</p>}
      {model.phase === 'loading' && (
        <div role="status" aria-live="polite">
          <p className="muted">{PHASE_LABEL[model.progress.phase]}…</p>
          <ProgressBar
            label="Model download"
            done={model.progress.loadedBytes}
            total={model.progress.totalBytes}
            bytes
          />
        </div>
      )}
      {model.phase === 'error' && (
        <p className="error" role="alert">
          The model could not be loaded: {model.error.message}
        </p>
      )}
      {info && (
        <p className="muted">
          Embedding model ready ({formatBytes(info.bytes)}, runs in this tab, loaded in{' '}
          {formatMs(info.downloadMs + info.initMs + info.warmupMs)}). Runtime details: Settings → Device.
        </p>
      )}
    </div>
  );
}

/**
 * The embedded model's facts: which model, which TF.js backend (threads, SIMD), whether the page
 * and the worker are cross-origin isolated, and why this backend. The Library's model panel and
 * Settings → Device both show it.
 */
export function BackendFacts({
  info,
  pageIsolated,
  backendTestId,
  children,
}: {
  readonly info: EmbedderInfo;
  readonly pageIsolated: boolean;
  /** `data-testid` of the backend line (one page at a time may carry it). */
  readonly backendTestId?: string;
  readonly children?: ReactNode;
}) {
  const b = info.backend;
  return (
    <dl className="facts">
      <dt>Embedder</dt>
      <dd>
        {info.id} ({info.dim}-d, {formatBytes(info.bytes)})
      </dd>
      <dt>Backend</dt>
      <dd data-testid={backendTestId}>
        {b.name}
        {b.name === 'wasm' && `, ${b.threads} thread${b.threads === 1 ? '' : 's'}${b.simd ? ', SIMD' : ''}`}
        {info.workers
          ? `; passages embedded by ${info.workers} worker${info.workers === 1 ? '' : 's'} side by side (1 thread each)`
          : ''}
      </dd>
      <dt>Cross-origin isolated</dt>
      <dd>
        {b.crossOriginIsolated ? 'yes (multithreaded WASM possible)' : 'no (single-threaded WASM)'}
        {pageIsolated !== b.crossOriginIsolated && ' — the page and the worker differ'}
      </dd>
      <dt>Why this backend</dt>
      <dd>{b.reason}</dd>
      {children}
    </dl>
  );
}
