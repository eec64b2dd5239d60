/**
 * Builds the service worker (`src/sw/service-worker.ts`) as its own entry, `sw.js` at the root
 * of the output (its scope is the base path), and writes the precache manifest into it once
 * every file of the build is on disk: the bundles (the app's worker and pdf.js's worker
 * included) and the public folder (model, WASM runtimes, pdf.js assets). The manifest's version
 * hashes every precached file's path and content, so each build gets its own cache; the files
 * cached on first use (onnxruntime-web, models other than the embedded one) are listed with a
 * hash of their content each, so the browser sees a changed `sw.js` whenever anything it serves
 * offline changed, and the new worker drops cached copies of changed runtime files.
 *
 * Builds only (`apply: 'build'`): it also defines `__EVIDENT_SERVICE_WORKER__`, which tells the
 * page to register the worker. The dev server defines nothing, so it registers none. (Not
 * `import.meta.env.PROD`: that follows NODE_ENV, which is `test` when the e2e suite builds.)
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { SERVICE_WORKER_FILE, isPrecached, isRuntimeCached, type PrecacheManifest } from '../src/sw/precache.ts';

const PLACEHOLDER = /(["'`])__EVIDENT_PRECACHE__\1/g;

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** SHA-256 of a file, hex, read as a stream (Enhanced model files are hundreds of MB). */
function fileDigest(file: string): Promise<string> {
  return new Promise((resolveDigest, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolveDigest(hash.digest('hex')));
  });
}

/**
 * The manifest of the build in `outDir`: the precached files and a hash of their contents, and
 * the files cached on first use with a hash of each.
 */
export async function precacheManifest(outDir: string): Promise<PrecacheManifest> {
  const all = await listFiles(outDir);
  const files = all.filter(isPrecached);
  const hash = createHash('sha256');
  for (const path of files) hash.update(`${path}\0${await fileDigest(join(outDir, path))}\n`);
  const runtime: Record<string, string> = {};
  for (const path of all.filter(isRuntimeCached)) runtime[path] = (await fileDigest(join(outDir, path))).slice(0, 16);
  return { version: hash.digest('hex').slice(0, 16), files, runtime };
}

/** Replaces the placeholder in the built service worker's code with the manifest (exactly once). */
export function injectManifest(code: string, manifest: PrecacheManifest): string {
  const found = code.match(PLACEHOLDER)?.length ?? 0;
  if (found !== 1) {
    throw new Error(
      `service worker: expected one __EVIDENT_PRECACHE__ placeholder in ${SERVICE_WORKER_FILE}, found ${found}.`,
    );
  }
  return code.replace(PLACEHOLDER, () => JSON.stringify(manifest));
}

export function serviceWorkerPlugin(options: { readonly entry: string }): Plugin {
  let root = process.cwd();
  return {
    name: 'evident:service-worker',
    apply: 'build',
    config() {
      return { define: { __EVIDENT_SERVICE_WORKER__: JSON.stringify(SERVICE_WORKER_FILE) } };
    },
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      this.emitFile({ type: 'chunk', id: resolve(root, options.entry), fileName: SERVICE_WORKER_FILE });
    },
    generateBundle(_options, bundle) {
      const sw = bundle[SERVICE_WORKER_FILE];
      // A classic service worker cannot `import`: the entry must be one self-contained file.
      if (!sw || sw.type !== 'chunk') throw new Error(`service worker: ${SERVICE_WORKER_FILE} was not built.`);
      if (sw.imports.length > 0 || sw.dynamicImports.length > 0) {
        throw new Error(
          `service worker: ${SERVICE_WORKER_FILE} imports ${[...sw.imports, ...sw.dynamicImports].join(', ')}; it must be self-contained.`,
        );
      }
    },
    async writeBundle(outputOptions) {
      const outDir = outputOptions.dir;
      if (!outDir) throw new Error('service worker: the build has no output folder.');
      const manifest = await precacheManifest(outDir);
      const file = join(outDir, SERVICE_WORKER_FILE);
      await writeFile(file, injectManifest(await readFile(file, 'utf8'), manifest));
      const runtime = Object.keys(manifest.runtime).length;
      this.info?.(
        `service worker: ${manifest.files.length} files precached, ${runtime} cached on first use, version ${manifest.version}`,
      );
    },
  };
}
