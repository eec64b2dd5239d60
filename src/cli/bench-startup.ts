/**
 * Startup of a stored library (`npm run bench -- --startup`, and the 10k size in the default
 * `npm run bench`): how long until a library of N chunks is searchable by its words, and until
 * its vectors are loaded too. Timings, never asserted (benchmarks are not tests).
 *
 *   npm run bench -- --startup                                  # Chromium, 10k and 100k chunks
 *   npm run bench -- --startup --startup-chunks 10000 --startup-node --runs 3
 *
 * 1. Chromium (the production build under `vite preview`, Debian's /usr/bin/chromium): the real
 *    app. The library is written into the app's own IndexedDB by the page, then the page is
 *    reloaded and the worker's own timings are read (worker start → searchable lexically →
 *    vectors loaded), plus navigation → library shown in the page. The first reload after
 *    seeding rebuilds BM25 from the chunks (and stores it); later ones read the stored index.
 *    IndexedDB's size (`navigator.storage.estimate()`) after seeding and after the reloads.
 *    Then the same library written as schema v3 stored it (every chunk also as its own record)
 *    into a fresh profile, opened by the app: the v3 → v5 migration's time, and the size before
 *    and after it.
 * 2. Optionally (`--startup-node`) Node with fake-indexeddb (a pure-JS IndexedDB: a poor proxy
 *    for a browser's, which reads from disk through another process). Side by side in one run,
 *    the two ways to make the library searchable lexically at startup:
 *      rebuild      read documents + chunks, build BM25 from the chunk texts;
 *      serialized   read documents + chunks (still needed to show results) and the stored
 *                   serialized BM25 index, deserialize it;
 *    and the vectors: read every segment, fill the FlatIndex.
 *
 * Chunks: ~90 words resampled from SciFact sentences (../shared) when present, else seeded
 * synthetic words; 100 chunks per document; vectors: seeded random unit vectors of 512
 * dimensions (the USE-lite size).
 */
import 'fake-indexeddb/auto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DocumentRecord, VectorRecord } from '../core/library-format';
import type { Chunk } from '../core/types';
import { fnv1a64 } from '../core/util/hash';
import { USE_EMBEDDER_ID } from '../models/use/use-embedder';
import { Library } from '../storage/library';
import { Engine } from '../worker/engine';
import { mulberry32, randomUnitVectors } from '../core/util/prng';
import { CHROMIUM_PATH } from '../node/chromium';

export interface StartupOptions {
  /** Library sizes in chunks (one fresh browser profile each). */
  readonly sizes: readonly number[];
  /** Chunks per document. */
  readonly perDoc: number;
  readonly dim: number;
  readonly runs: number;
  readonly node: boolean;
  readonly chromium: boolean;
}

export const DEFAULT_STARTUP_OPTIONS: StartupOptions = Object.freeze({
  sizes: [10_000, 100_000],
  perDoc: 100,
  dim: 512,
  runs: 3,
  node: false,
  chromium: true,
});

/** One size of one run. */
interface Args {
  readonly chunks: number;
  readonly docs: number;
  readonly dim: number;
  readonly runs: number;
}

function sentences(): { list: string[]; source: string } {
  const file = path.resolve(process.env.EVIDENT_SHARED ?? '../shared', 'datasets', 'scifact', 'corpus.jsonl');
  if (existsSync(file)) {
    const list: string[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const doc = JSON.parse(line) as { text: string };
      for (const s of doc.text.split(/(?<=[.!?])\s+/)) if (s.length > 20) list.push(s);
    }
    return { list, source: 'SciFact sentences' };
  }
  const rand = mulberry32(3);
  const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
  const list = Array.from(
    { length: 20_000 },
    () =>
      Array.from({ length: 8 + Math.floor(rand() * 20) }, () => words[Math.floor(rand() ** 2 * words.length)]).join(
        ' ',
      ) + '.',
  );
  return { list, source: 'synthetic words (../shared missing)' };
}

interface Fixture {
  documents: DocumentRecord[];
  chunks: Chunk[][];
  source: string;
}

function makeLibrary(args: Args): Fixture {
  const { list, source } = sentences();
  const rand = mulberry32(7);
  const per = Math.ceil(args.chunks / args.docs);
  const documents: DocumentRecord[] = [];
  const chunks: Chunk[][] = [];
  let made = 0;
  for (let d = 0; d < args.docs && made < args.chunks; d++) {
    const id = `bench-${d}`;
    const count = Math.min(per, args.chunks - made);
    const list2: Chunk[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      const parts: string[] = [];
      let words = 0;
      while (words < 90) {
        const s = list[Math.floor(rand() * list.length)] as string;
        parts.push(s);
        words += s.split(' ').length;
      }
      const text = parts.join(' ');
      list2.push({
        id: `${id}#${i}`,
        docId: id,
        ordinal: i,
        text,
        headings: [`Document ${d}`, `Section ${Math.floor(i / 10)}`],
        start: at,
        end: at + text.length,
        prevId: i > 0 ? `${id}#${i - 1}` : null,
        nextId: i < count - 1 ? `${id}#${i + 1}` : null,
        hash: fnv1a64(text),
        tokens: 120,
      });
      at += text.length + 2;
    }
    made += count;
    chunks.push(list2);
    documents.push({
      id,
      title: `Benchmark document ${d}`,
      sourceType: 'peer_reviewed',
      status: 'current',
      fileName: `${id}.md`,
      format: 'markdown',
      size: at,
      bytesHash: fnv1a64(id).repeat(4),
      addedAt: 1_700_000_000_000 + d,
      updatedAt: 1_700_000_000_000 + d,
      chunkCount: count,
      pageCount: null,
      vectorState: 'complete',
    });
  }
  return { documents, chunks, source };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (ms: number): string => `${ms.toFixed(0).padStart(6)} ms`;
/** A figure of the results: milliseconds, except the `storage MiB: …` ones. */
const fmtRow = (key: string, v: number): string =>
  key.startsWith('storage MiB') ? `${v.toFixed(1).padStart(6)} MiB` : fmt(v);

async function benchNode(args: Args, fx: Fixture): Promise<Record<string, number>> {
  const name = `bench-startup-${Date.now()}`;
  const seed = await Library.open({ name });
  const t0 = performance.now();
  for (const [d, doc] of fx.documents.entries()) {
    const chunks = fx.chunks[d] as Chunk[];
    const vectors: VectorRecord = {
      docId: doc.id,
      embedderId: 'bench-512',
      dim: args.dim,
      encoding: 'f32',
      chunkIds: chunks.map((c) => c.id),
      data: randomUnitVectors(chunks.length, args.dim, d + 1),
      docAddedAt: doc.addedAt,
    };
    await seed.putDocument({ document: doc, chunks, vectors });
  }
  const seedMs = performance.now() - t0;
  // The serialized index is written in the background after every change; measure one write.
  const text0 = await seed.loadText();
  const engine0 = new Engine();
  engine0.attachStore(seed);
  const t1 = performance.now();
  engine0.load(text0.documents, text0.chunks);
  const firstBuildMs = performance.now() - t1;
  const t2 = performance.now();
  await engine0.flushLexical();
  const saveLexicalMs = performance.now() - t2;
  seed.close();

  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number): void => void (rows[k] ??= []).push(v);
  for (let run = 0; run < args.runs; run++) {
    const s0 = performance.now();
    const lib = await Library.open({ name });
    const openMs = performance.now() - s0;
    const text = await lib.loadText();
    // Rebuild: BM25 from the chunk texts.
    const s1 = performance.now();
    const rebuilt = new Engine();
    const how = rebuilt.load(text.documents, text.chunks).lexical;
    const buildMs = performance.now() - s1;
    if (how !== 'rebuilt') throw new Error(`expected a rebuild, got ${how}`);
    // Serialized: read the stored index, deserialize it.
    const s2 = performance.now();
    const stored = await lib.loadLexical();
    const readSerializedMs = performance.now() - s2;
    const s3 = performance.now();
    const engine = new Engine();
    const how2 = engine.load(text.documents, text.chunks, stored).lexical;
    const deserializeMs = performance.now() - s3;
    if (how2 !== 'stored') throw new Error(`expected the stored index, got ${how2}`);
    const s4 = performance.now();
    const vectors = await lib.loadVectors();
    const readVectorsMs = performance.now() - s4;
    const s5 = performance.now();
    engine.loadVectors(vectors);
    const fillMs = performance.now() - s5;
    lib.close();
    add('open', openMs);
    add('read documents + chunks', text.ms);
    add('rebuild: build BM25 from chunks', buildMs);
    add('serialized: read stored BM25', readSerializedMs);
    add('serialized: deserialize + load', deserializeMs);
    add('searchable lexically, rebuild', openMs + text.ms + buildMs);
    add('searchable lexically, serialized', openMs + text.ms + readSerializedMs + deserializeMs);
    add('read vectors', readVectorsMs);
    add('fill FlatIndex', fillMs);
    add('fully loaded (serialized BM25)', openMs + text.ms + readSerializedMs + deserializeMs + readVectorsMs + fillMs);
  }
  const out: Record<string, number> = {
    'seed (write all, one tx per document)': seedMs,
    'first startup: build BM25': firstBuildMs,
    'first startup: store serialized BM25': saveLexicalMs,
  };
  for (const [k, v] of Object.entries(rows)) out[k] = median(v);
  return out;
}

/**
 * Page-side code as source text: tsx would wrap functions passed to `page.evaluate` in helpers
 * that do not exist in the page. Writes one document with its chunks and seeded vectors in one
 * transaction, as the app's schema (v5) has them: the document's chunk set is its chunks' one
 * record, its vectors one segment keyed by (model, document), the model first of `vectorModels`.
 * With `v3`, as schema v3 wrote them: also one record per chunk in the `chunks` store, and the
 * vectors in `vectors`, keyed by document. The vectors are USE lite's (`model`), the app's
 * default embedder, so that nothing is re-embedded between the reloads that are timed.
 */
const SEED_IN_PAGE = `async ({ doc, chunks, dim, seed, v3, model }) => {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const data = new Float32Array(chunks.length * dim);
  for (let i = 0; i < data.length; i++) data[i] = rand() * 2 - 1;
  const db = await new Promise((res, rej) => {
    const r = indexedDB.open('evident');
    r.onsuccess = () => res(r.result);
    r.onerror = () => rej(r.error);
  });
  const vectorStore = v3 ? 'vectors' : 'vectorSets';
  const tx = db.transaction(['documents', 'chunkSets', vectorStore, 'settings', ...(v3 ? ['chunks'] : [])], 'readwrite');
  tx.objectStore('documents').put(doc);
  if (v3) for (const c of chunks) tx.objectStore('chunks').put(c);
  tx.objectStore('chunkSets').put({ docId: doc.id, docAddedAt: doc.addedAt, chunks });
  tx.objectStore(vectorStore).put({ docId: doc.id, embedderId: model, dim, encoding: 'f32',
    chunkIds: chunks.map((c) => c.id), data, docAddedAt: doc.addedAt });
  if (!v3) {
    const settings = tx.objectStore('settings');
    const r = settings.get('vectorModels');
    r.onsuccess = () => settings.put([model, ...(r.result || []).filter((m) => m !== model)].slice(0, 2), 'vectorModels');
  }
  await new Promise((res, rej) => { tx.oncomplete = () => res(); tx.onabort = () => rej(tx.error); });
  db.close();
}`;

/** Creates the app's database as schema v3 had it (`migrate` in src/storage/db.ts up to 3), empty. */
const CREATE_V3_IN_PAGE = `new Promise((res, rej) => {
  const r = indexedDB.open('evident', 3);
  r.onupgradeneeded = () => {
    const db = r.result;
    db.createObjectStore('documents', { keyPath: 'id' }).createIndex('by-hash', 'bytesHash');
    db.createObjectStore('chunks', { keyPath: 'id' }).createIndex('by-doc', 'docId');
    db.createObjectStore('vectors', { keyPath: 'docId' });
    db.createObjectStore('lexical');
    db.createObjectStore('settings');
    db.createObjectStore('priors');
    db.createObjectStore('feedback', { keyPath: 'id', autoIncrement: true }).createIndex('by-doc', 'docId');
    db.createObjectStore('ingestQueue', { keyPath: 'seq', autoIncrement: true });
    db.createObjectStore('chunkSets', { keyPath: 'docId' });
  };
  r.onsuccess = () => { r.result.close(); res(r.result.version); };
  r.onerror = () => rej(r.error);
})`;

/**
 * What the origin's IndexedDB takes (`navigator.storage.estimate()`'s `usageDetails.indexedDB`,
 * Chromium; the whole origin's usage elsewhere), in bytes.
 */
const IDB_USAGE_IN_PAGE = `navigator.storage.estimate().then((e) => e.usageDetails?.indexedDB ?? e.usage ?? 0)`;

/** Resolves with the page's clock (ms since navigation) when the library is shown from storage. */
const SHOWN_IN_PAGE = `new Promise((res) => {
  const check = () => {
    const el = document.querySelector('[data-testid="library"][data-state="ready"][data-source="stored"]');
    if (el) res(performance.now());
    else requestAnimationFrame(check);
  };
  check();
})`;

/** The production app built into a temporary folder and served by `vite preview`. */
interface AppServer {
  readonly url: string;
  close(): Promise<void>;
}

async function serveApp(): Promise<AppServer> {
  const { build, preview } = await import('vite');
  const { copyAssets } = await import('../../scripts/copy-assets.ts');
  const root = process.cwd();
  await copyAssets(root);
  const outDir = await mkdtemp(path.join(tmpdir(), 'evident-bench-'));
  const configFile = path.join(root, 'vite.config.ts');
  await build({ root, configFile, mode: 'production', logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    root,
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview gave no URL');
  return {
    url,
    async close() {
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** Chromium: the production app in a fresh profile, its IndexedDB filled by the page, then reloaded `runs` times. */
async function benchChromium(
  args: Args,
  fx: Fixture,
  url: string,
  chromiumPath: string,
): Promise<Record<string, number>> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    // First run: the app creates the database and adds the demo; wait for it to settle.
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 300_000 });
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 300_000 });
    await page.locator('[data-testid="library"][data-source="ingested"]').waitFor({ timeout: 300_000 });
    const t0 = performance.now();
    await seedLibrary(page, args, fx, false);
    const seedMs = performance.now() - t0;
    const usageSeeded = Number(await page.evaluate(IDB_USAGE_IN_PAGE));
    const rows: Record<string, number[]> = {};
    const add = (k: string, v: number): void => void (rows[k] ??= []).push(v);
    // One more reload than runs: the first rebuilds BM25 from the chunks (and stores it), the
    // others read the stored index; each kind gets its own median.
    for (let run = 0; run <= args.runs; run++) {
      await page.reload();
      const shownMs = Number(await page.evaluate(SHOWN_IN_PAGE));
      const lib = page.getByTestId('library');
      const attr = async (n: string): Promise<number> => Number(await lib.getAttribute(`data-${n}`));
      const chunks = await attr('chunks');
      if (chunks < args.chunks) throw new Error(`the app shows ${chunks} chunks, expected at least ${args.chunks}`);
      const how = (await lib.getAttribute('data-lexical')) ?? '?';
      const kind = how === 'stored' ? 'BM25 stored' : `BM25 ${how}`;
      add(`[${kind}] worker: open database`, await attr('open-ms'));
      add(`[${kind}] worker: read documents + chunks`, await attr('read-ms'));
      add(`[${kind}] worker: ${how === 'stored' ? 'deserialize' : 'build'} BM25`, await attr('lexical-ms'));
      add(`[${kind}] worker start → searchable lexically`, await attr('load-ms'));
      add(`[${kind}] worker: read vectors + fill FlatIndex`, await attr('vectors-ms'));
      add(`[${kind}] worker start → fully loaded`, await attr('loaded-ms'));
      add(`[${kind}] page navigation → library shown`, shownMs);
    }
    const out: Record<string, number> = { 'seed (page writes, one tx per document)': seedMs };
    for (const [k, v] of Object.entries(rows)) out[k] = median(v);
    // Storage is reported in MiB under keys that say so (the rest are milliseconds).
    out['storage MiB: IndexedDB after seeding'] = usageSeeded / 2 ** 20;
    out['storage MiB: IndexedDB after the reloads'] = Number(await page.evaluate(IDB_USAGE_IN_PAGE)) / 2 ** 20;
    Object.assign(out, await benchMigration(browser, args, fx, url));
    return out;
  } finally {
    await browser.close();
  }
}

/** Writes the fixture library into the page's database, one transaction per document (as v3 stored it, or as the app does). */
async function seedLibrary(page: Page, args: Args, fx: Fixture, v3: boolean): Promise<void> {
  for (const [d, doc] of fx.documents.entries()) {
    const arg = { doc, chunks: fx.chunks[d] as Chunk[], dim: args.dim, seed: d + 1, v3, model: USE_EMBEDDER_ID };
    await page.evaluate(`(${SEED_IN_PAGE})(${JSON.stringify(arg)})`);
  }
}

/**
 * The same library written as schema v3 stored it (every chunk twice: its own record and its
 * document's chunk set) in a fresh profile, before the app's first visit; then the app opens it,
 * migrating to v5 (`src/storage/db.ts`: v4 folds the chunks into the sets, v5 keys the vectors
 * by model), and is reloaded once more.
 */
async function benchMigration(browser: Browser, args: Args, fx: Fixture, url: string): Promise<Record<string, number>> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // A page of the app's origin that does not start the app (nor register the service worker).
    await page.goto(new URL('sw.js', url).href);
    if (Number(await page.evaluate(CREATE_V3_IN_PAGE)) !== 3) throw new Error('could not create a v3 database');
    await seedLibrary(page, args, fx, true);
    const usageV3 = Number(await page.evaluate(IDB_USAGE_IN_PAGE));
    await page.goto(url);
    const lib = page.getByTestId('library');
    await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 300_000 });
    const openMs = Number(await lib.getAttribute('data-open-ms'));
    const chunks = Number(await lib.getAttribute('data-chunks'));
    if (chunks < args.chunks)
      throw new Error(`after migrating, the app shows ${chunks} chunks, expected ${args.chunks}`);
    await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 300_000 });
    await page.locator('[data-testid="library"][data-source="ingested"]').waitFor({ timeout: 300_000 });
    await page.reload();
    await page
      .locator('[data-testid="library"][data-state="ready"][data-source="stored"]')
      .waitFor({ timeout: 300_000 });
    return {
      '[v3 library] worker: open database, migrating to v5': openMs,
      '[v3 library, migrated] worker: open database': Number(await lib.getAttribute('data-open-ms')),
      'storage MiB: IndexedDB of the v3 library': usageV3 / 2 ** 20,
      'storage MiB: IndexedDB after migrating to v5 and a reload':
        Number(await page.evaluate(IDB_USAGE_IN_PAGE)) / 2 ** 20,
    };
  } finally {
    await context.close();
  }
}

export interface StartupResult {
  readonly chunks: number;
  readonly source: string;
  readonly node?: Record<string, number>;
  readonly chromium?: Record<string, number> | string;
}

/** Runs the startup benchmark at every size; prints as it goes and returns the figures. */
export async function runStartup(
  options: Partial<StartupOptions> = {},
  log: (msg: string) => void = console.log,
): Promise<StartupResult[]> {
  const opts: StartupOptions = { ...DEFAULT_STARTUP_OPTIONS, ...options };
  for (const n of [...opts.sizes, opts.perDoc, opts.runs]) {
    if (!Number.isInteger(n) || n < 1)
      throw new Error('bench --startup: sizes, chunks per document and runs must be positive integers.');
  }
  const chromiumPath = CHROMIUM_PATH;
  const chromiumMissing =
    opts.chromium && !existsSync(chromiumPath) ? `${chromiumPath} is missing: Chromium part skipped` : null;
  const app = opts.chromium && !chromiumMissing ? await serveApp() : null;
  const results: StartupResult[] = [];
  try {
    for (const chunks of opts.sizes) {
      const args: Args = { chunks, docs: Math.ceil(chunks / opts.perDoc), dim: opts.dim, runs: opts.runs };
      const fx = makeLibrary(args);
      const made = fx.chunks.reduce((s, c) => s + c.length, 0);
      const mb = fx.chunks.flat().reduce((s, c) => s + c.text.length, 0) / 2 ** 20;
      log(
        `\nstartup: ${fx.documents.length} documents, ${made} chunks (${mb.toFixed(1)} M chars of ${fx.source}), ` +
          `${args.dim}-d float32 vectors (${((made * args.dim * 4) / 2 ** 20).toFixed(1)} MiB); medians of ${args.runs} runs`,
      );
      const result: { -readonly [K in keyof StartupResult]: StartupResult[K] } = { chunks: made, source: fx.source };
      if (opts.node) {
        result.node = await benchNode(args, fx);
        log('Node 20 + fake-indexeddb (in-memory; a poor proxy for a browser):');
        for (const [k, v] of Object.entries(result.node)) log(`  ${k.padEnd(54)} ${fmt(v)}`);
      }
      if (chromiumMissing) {
        result.chromium = chromiumMissing;
        log(`Chromium: ${chromiumMissing}`);
      } else if (app) {
        result.chromium = await benchChromium(args, fx, app.url, chromiumPath);
        log('Chromium (production build, real IndexedDB on disk):');
        for (const [k, v] of Object.entries(result.chromium)) log(`  ${k.padEnd(54)} ${fmtRow(k, v)}`);
      }
      results.push(result);
    }
  } finally {
    await app?.close();
  }
  return results;
}
