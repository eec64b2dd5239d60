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

/** Model loading progress, then which backend runs it and why. */
export function ModelStatus({ model, pageIsolated }: Props) {
  const info = model.phase === 'ready' ? model.info : null;
  return (
    <section
      className="panel model-status"
      aria-labelledby="model-heading"
      data-testid="model-status"
      data-state={model.phase}
      data-backend={info?.backend.name}
      data-threads={info?.backend.threads}
      data-isolated={info ? (info.backend.crossOriginIsolated ? 'yes' : 'no') : undefined}
      data-download-ms={info ? Math.round(info.downloadMs) : undefined}
      data-init-ms={info ? Math.round(info.initMs) : undefined}
      data-warmup-ms={info ? Math.round(info.warmupMs) : undefined}
    >
      <h2 id="model-heading">Model</h2>
      {model.phase === 'idle' && <p>Waiting to start…</p>}
      {model.phase === 'loading' && (
        <div role="status" aria-live="polite">
          <p>{PHASE_LABEL[model.progress.phase]}…</p>
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
        <dl className="facts">
          <dt>Embedder</dt>
          <dd>
            {info.id} ({info.dim}-d, {formatBytes(info.bytes)})
          </dd>
          <dt>Backend</dt>
          <dd>
            {info.backend.name}
            {info.backend.name === 'wasm' &&
              `, ${info.backend.threads} thread${info.backend.threads === 1 ? '' : 's'}${info.backend.simd ? ', SIMD' : ''}`}
          </dd>
          <dt>Cross-origin isolated</dt>
          <dd>
            {info.backend.crossOriginIsolated ? 'yes' : 'no'}
            {pageIsolated !== info.backend.crossOriginIsolated && ' (page and worker differ)'}
          </dd>
          <dt>Why</dt>
          <dd>{info.backend.reason}</dd>
          <dt>Load time</dt>
          <dd>
            download {formatMs(info.downloadMs)}, start {formatMs(info.initMs)}, first embedding{' '}
            {formatMs(info.warmupMs)}
          </dd>
        </dl>
      )}
    </section>
  );
}
