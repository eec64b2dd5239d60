import { EvidentError } from '../core/errors';
import { throwIfAborted } from '../core/util/abort';
import { ASSET_MANIFEST_VERSION, type AssetFile, type AssetManifest } from './asset-manifest';

/**
 * Downloads a self-hosted model folder described by its `manifest.json`, with byte-level
 * progress and SHA-256 verification. Same-origin only: `baseUrl` must share the worker's origin.
 */
export interface FetchModelOptions {
  readonly signal?: AbortSignal;
  /** Called with cumulative bytes over all files; throttled by the caller if needed. */
  readonly onBytes?: (loadedBytes: number, totalBytes: number) => void;
  /** Called once downloads are complete, before hashing starts. */
  readonly onVerify?: () => void;
  /** Check SHA-256 of every file (default true; ~50 ms for the 28 MB USE model). */
  readonly verify?: boolean;
  /** Only these paths (default: every file in the manifest). */
  readonly only?: readonly string[];
  /** Injected for tests; default the global fetch. */
  readonly fetch?: typeof fetch;
}

export interface FetchedModel {
  readonly manifest: AssetManifest;
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly totalBytes: number;
  readonly ms: number;
}

export async function fetchModelFiles(baseUrl: URL, options: FetchModelOptions = {}): Promise<FetchedModel> {
  const doFetch = options.fetch ?? fetch;
  const t0 = performance.now();
  const manifest = await fetchManifest(baseUrl, doFetch, options.signal);
  const wanted = options.only ? manifest.files.filter((f) => options.only!.includes(f.path)) : manifest.files;
  const totalBytes = wanted.reduce((sum, f) => sum + f.bytes, 0);
  const loaded = new Map<string, number>();
  const report = (): void => {
    let sum = 0;
    for (const n of loaded.values()) sum += n;
    options.onBytes?.(sum, totalBytes);
  };
  report();
  const buffers = await Promise.all(
    wanted.map((file) =>
      fetchFile(new URL(file.path, baseUrl), file, doFetch, options.signal, (n) => {
        loaded.set(file.path, n);
        report();
      }),
    ),
  );
  throwIfAborted(options.signal);
  if (options.verify !== false) {
    options.onVerify?.();
    await Promise.all(wanted.map((file, i) => verifySha256(file, buffers[i]!)));
  }
  const files = new Map<string, Uint8Array>();
  wanted.forEach((file, i) => files.set(file.path, buffers[i]!));
  return { manifest, files, totalBytes, ms: performance.now() - t0 };
}

async function fetchManifest(baseUrl: URL, doFetch: typeof fetch, signal?: AbortSignal): Promise<AssetManifest> {
  const url = new URL('manifest.json', baseUrl);
  const res = await doFetch(url, { signal, cache: 'no-cache' }).catch((err: unknown) => rethrowNetwork(err, url));
  if (!res.ok) {
    throw new EvidentError(
      'model_not_found',
      `The model manifest is missing (${url.pathname}: HTTP ${res.status}). Run \`npm run setup:assets\` and rebuild.`,
    );
  }
  const value = (await res.json()) as Partial<AssetManifest>;
  if (value.version !== ASSET_MANIFEST_VERSION || !Array.isArray(value.files)) {
    throw new EvidentError(
      'model_load_failed',
      `The model manifest at ${url.pathname} has version ${String(value.version)}; this app reads version ${ASSET_MANIFEST_VERSION}.`,
    );
  }
  return value as AssetManifest;
}

async function fetchFile(
  url: URL,
  file: AssetFile,
  doFetch: typeof fetch,
  signal: AbortSignal | undefined,
  onLoaded: (bytes: number) => void,
): Promise<Uint8Array> {
  const res = await doFetch(url, { signal }).catch((err: unknown) => rethrowNetwork(err, url));
  if (!res.ok) {
    throw new EvidentError('model_not_found', `Model file ${url.pathname} is missing (HTTP ${res.status}).`);
  }
  if (!res.body) {
    const data = new Uint8Array(await res.arrayBuffer());
    onLoaded(data.byteLength);
    return data;
  }
  // The manifest knows the size, so fill one preallocated buffer instead of concatenating chunks.
  const out = new Uint8Array(file.bytes);
  const reader = res.body.getReader();
  let offset = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (offset + value.byteLength > out.byteLength) {
        throw new EvidentError(
          'cache_corrupted',
          `Model file ${url.pathname} is larger than its manifest says (${file.bytes} bytes). Run \`npm run setup:assets\` and rebuild.`,
        );
      }
      out.set(value, offset);
      offset += value.byteLength;
      onLoaded(offset);
    }
  } finally {
    reader.releaseLock();
  }
  if (offset !== file.bytes) {
    throw new EvidentError(
      'cache_corrupted',
      `Model file ${url.pathname} is truncated: ${offset} of ${file.bytes} bytes. Reload to retry.`,
    );
  }
  return out;
}

async function verifySha256(file: AssetFile, data: Uint8Array): Promise<void> {
  if (typeof crypto === 'undefined' || !crypto.subtle) return; // insecure context: nothing to verify with
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  if (hex !== file.sha256) {
    throw new EvidentError(
      'cache_corrupted',
      `Model file ${file.path} does not match its checksum. Run \`npm run setup:assets\` and rebuild, then reload.`,
    );
  }
}

function rethrowNetwork(err: unknown, url: URL): never {
  if (err instanceof EvidentError) throw err;
  if (err instanceof Error && err.name === 'AbortError') throw new EvidentError('aborted', 'Cancelled.');
  throw new EvidentError('offline', `Could not download ${url.pathname} from this site (${String(err)}).`);
}

/** Concatenates weight shards in `weightsManifest` order into one ArrayBuffer, as TF.js expects. */
export function concatShards(parts: readonly Uint8Array[]): ArrayBuffer {
  const total = parts.reduce((sum, p) => sum + p.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out.buffer;
}

/** Calls `fn` at most once per `ms`, plus always when `force` is set (final events). */
export function throttle<A extends unknown[]>(
  ms: number,
  fn: (...args: A) => void,
): (force: boolean, ...args: A) => void {
  let last = -Infinity;
  return (force, ...args) => {
    const now = performance.now();
    if (!force && now - last < ms) return;
    last = now;
    fn(...args);
  };
}
