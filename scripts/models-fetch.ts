/**
 * Downloads a profile's Hub models into the self-hosted folder `models/<id>/`
 * (`npm run models:fetch -- --profile enhanced [--write-manifest] [--host URL] [--out DIR]`),
 * so the app serves them from its own origin (`scripts/copy-assets.ts` copies them into
 * `public/models/`) and never asks the user to download from Hugging Face.
 *
 * Each file is streamed to a temporary name and renamed into place once complete; a file that
 * is already present with the manifest's size (and SHA-256, when pinned) is skipped. Sizes and
 * hashes in the manifest are verified; `--write-manifest` records them after a first fetch.
 *
 * Exit codes: 0 done, 1 a file failed (404, size or hash mismatch), 2 the Hub is unreachable —
 * then it prints one line saying so and how to copy the files by hand.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PROFILE_NAMES, modelPath, parseManifest, type ModelSpec, type ProfileName } from '../src/models/manifest.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_HOST = 'https://huggingface.co';
/** Time to first byte per request; large files may take long after that. */
const CONNECT_TIMEOUT_MS = 20_000;

export interface FetchModelsOptions {
  readonly profile: ProfileName;
  /** Hub base URL (default https://huggingface.co). */
  readonly host?: string;
  /** The models folder (default `<repo>/models`). */
  readonly outDir?: string;
  /** The manifest to read (and, with `writeManifest`, update). Default `<outDir>/manifest.json`. */
  readonly manifestPath?: string;
  readonly writeManifest?: boolean;
  readonly log?: (line: string) => void;
}

export interface FetchedFile {
  readonly model: string;
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly skipped: boolean;
}

/** The Hub could not be reached at all (DNS, connection, TLS, timeout). */
export class HubUnreachableError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`cannot reach ${host}: ${reason}`);
    this.name = 'HubUnreachableError';
  }
}

function networkReason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  return e?.cause?.message ?? e?.cause?.code ?? e?.message ?? String(err);
}

async function sha256File(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** Downloads every file of the profile's `hub` models; returns what it fetched or skipped. */
export async function fetchModels(options: FetchModelsOptions): Promise<FetchedFile[]> {
  const host = (options.host ?? DEFAULT_HOST).replace(/\/$/, '');
  const hostName = new URL(host).host;
  const outDir = options.outDir ?? join(ROOT, 'models');
  const manifestPath = options.manifestPath ?? join(outDir, 'manifest.json');
  const log = options.log ?? (() => {});
  const rawManifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
  const manifest = parseManifest(rawManifest);
  const specs = Object.values(manifest.profiles[options.profile].roles).filter(
    (s): s is ModelSpec => s !== null && s.source === 'hub',
  );
  const results: FetchedFile[] = [];

  for (const spec of specs) {
    const folder = join(outDir, modelPath(spec));
    const revision = encodeURIComponent(spec.revision ?? 'main');
    for (const file of spec.files) {
      const target = join(folder, file.path);
      const present = await stat(target).catch(() => null);
      if (present && file.bytes !== null && present.size === file.bytes) {
        const sha = await sha256File(target);
        if (!file.sha256 || sha === file.sha256) {
          results.push({ model: spec.id, path: file.path, bytes: present.size, sha256: sha, skipped: true });
          log(`  ${spec.id}/${file.path}: present (${present.size} bytes)`);
          continue;
        }
      }
      const url = `${host}/${spec.id}/resolve/${revision}/${file.path}`;
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS), redirect: 'follow' });
      } catch (err) {
        throw new HubUnreachableError(hostName, networkReason(err));
      }
      if (!response.ok || !response.body) {
        throw new Error(`${spec.id}/${file.path}: HTTP ${response.status} from ${url}`);
      }
      await mkdir(dirname(target), { recursive: true });
      const tmp = `${target}.part-${process.pid}`;
      const hash = createHash('sha256');
      let bytes = 0;
      const counted = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      counted.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      try {
        await pipeline(counted, createWriteStream(tmp));
      } catch (err) {
        await rm(tmp, { force: true });
        throw new HubUnreachableError(hostName, `download of ${spec.id}/${file.path} broke off: ${networkReason(err)}`);
      }
      const sha = hash.digest('hex');
      if (file.bytes !== null && bytes !== file.bytes) {
        await rm(tmp, { force: true });
        throw new Error(`${spec.id}/${file.path}: ${bytes} bytes, the manifest says ${file.bytes}.`);
      }
      if (file.sha256 && sha !== file.sha256) {
        await rm(tmp, { force: true });
        throw new Error(`${spec.id}/${file.path}: SHA-256 ${sha} does not match the manifest's ${file.sha256}.`);
      }
      await rename(tmp, target);
      results.push({ model: spec.id, path: file.path, bytes, sha256: sha, skipped: false });
      log(`  ${spec.id}/${file.path}: ${(bytes / 1e6).toFixed(1)} MB`);
    }
  }

  if (options.writeManifest) await recordSizes(manifestPath, rawManifest, options.profile, results);
  return results;
}

/** Writes exact sizes and hashes of the fetched files (and each model's total) into the manifest. */
async function recordSizes(
  path: string,
  raw: Record<string, unknown>,
  profile: ProfileName,
  fetched: readonly FetchedFile[],
): Promise<void> {
  const roles = (raw.profiles as Record<string, { roles: Record<string, Record<string, unknown> | null> }>)[profile]!
    .roles;
  for (const spec of Object.values(roles)) {
    if (!spec || spec.source !== 'hub') continue;
    const files = spec.files as { path: string; bytes: number | null; sha256?: string }[];
    for (const f of files) {
      const got = fetched.find((r) => r.model === spec.id && r.path === f.path);
      if (got) Object.assign(f, { bytes: got.bytes, sha256: got.sha256 });
    }
    spec.bytes = files.every((f) => f.bytes !== null) ? files.reduce((a, f) => a + (f.bytes as number), 0) : null;
  }
  parseManifest(raw);
  await writeFile(path, JSON.stringify(raw, null, 2) + '\n');
}

function parseArgs(argv: readonly string[]): FetchModelsOptions {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const known = ['--profile', '--host', '--out', '--write-manifest'];
  for (const a of argv) {
    if (a.startsWith('--') && !known.includes(a)) {
      throw new Error(`unknown option ${a}. Allowed: ${known.join(', ')}.`);
    }
  }
  const profile = value('--profile') ?? 'enhanced';
  if (!(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new Error(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got "${profile}".`);
  }
  const host = value('--host');
  const out = value('--out');
  return {
    profile: profile as ProfileName,
    ...(host ? { host } : {}),
    ...(out ? { outDir: resolve(out) } : {}),
    writeManifest: argv.includes('--write-manifest'),
    log: (line) => console.log(line),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  let options: FetchModelsOptions;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`models:fetch: ${(err as Error).message}`);
    process.exit(1);
  }
  fetchModels(options).then(
    (files) => {
      const got = files.filter((f) => !f.skipped);
      const mb = got.reduce((a, f) => a + f.bytes, 0) / 1e6;
      console.log(
        `models:fetch: ${got.length} downloaded (${mb.toFixed(1)} MB), ${files.length - got.length} already present.`,
      );
    },
    (err: unknown) => {
      if (err instanceof HubUnreachableError) {
        console.error(
          `models:fetch: cannot reach ${err.host}: ${err.reason}. Run this where ${err.host} is reachable, or copy the files listed in models/manifest.json into models/<id>/ by hand.`,
        );
        process.exit(2);
      }
      console.error(`models:fetch: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
