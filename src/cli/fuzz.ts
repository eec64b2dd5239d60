/**
 * `npm run fuzz -- [--cases N] [--seed S] [--json f] [--out dir] [--replay file]`: seeded
 * mutations of real and generated documents through the app's parse path (`ingestBytes`:
 * `parseDocument`, then the chunker with the USE tokenizer, then pages), in Node.
 *
 * Seeds: the good files of `../shared/testdocs/good` (read at run time, never copied into the
 * repository; skipped with a notice when missing) and the project's generated fixtures
 * (`test/fixtures/documents.ts`). Each case is a pure function of (seed, case index), so a case
 * is reproduced by its number alone; failing cases are also written out as files.
 *
 * Mutations: byte flips, truncation at a random offset, a range deleted or repeated, a ZIP entry's
 * data corrupted or its sizes rewritten (DOCX), a PDF stream's `/Length` or the xref offsets
 * altered, deeply nested HTML and DOCX, 1-byte files and 50 MB files.
 *
 * Every case runs in a child process that is killed after `CASE_TIMEOUT_MS` of its CPU time (a hang) and
 * restarted; a child that dies (a crash, out of memory past `CHILD_HEAP_MB`) is restarted too, so
 * one case never stops the run. A case passes when it ends in a parsed document or an
 * `EvidentError` with a known code (not `internal`) and a plain message. Exits 1 when any case
 * crashed or hung, 2 on bad usage. OCR is off (tesseract would read every mutated scan for minutes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docx, onboardingDocx, pdf, SAFETY_REPORT_PDF, w } from '../../test/fixtures/documents';
import { ERROR_CODES, EvidentError } from '../core/errors';
import { mulberry32 } from '../core/util/prng';
import { sharedPath } from '../node/shared-data';
import { parseCli, runIfMain } from './common';

/** The bound: every case ends within 10 s. */
export const CASE_TIMEOUT_MS = 10_000;
/** The child's V8 heap limit: a case that needs more is out of memory, reported as a crash. */
export const CHILD_HEAP_MB = 3072;
const BIG_BYTES = 50 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Seeds and mutations (pure: the same seed and index give the same bytes)
// ---------------------------------------------------------------------------------------------

export interface Seed {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly kind: 'pdf' | 'docx' | 'html' | 'markdown' | 'text';
}

export interface FuzzCase {
  readonly index: number;
  readonly mutation: string;
  /** The seed file it was made from. */
  readonly from: string;
  /** The file name given to the parser (its extension helps detection). */
  readonly fileName: string;
  readonly bytes: Uint8Array;
}

const enc = new TextEncoder();

function kindOf(name: string): Seed['kind'] {
  const ext = path.extname(name).toLowerCase();
  if (ext === '.pdf') return 'pdf';
  if (ext === '.docx') return 'docx';
  if (ext === '.html' || ext === '.htm') return 'html';
  if (ext === '.md') return 'markdown';
  return 'text';
}

/** The project's own fixtures: small PDFs, DOCX packages, HTML, Markdown and text. */
export async function fixtureSeeds(): Promise<Seed[]> {
  const tablePdf = pdf([
    [
      { text: 'Plant inventory', size: 18, y: 720 },
      { text: 'Pump A      12 units      Hall 3', y: 690 },
      { text: 'Valve B      4 units      Hall 1', y: 675 },
    ],
    [],
  ]);
  return [
    { name: 'fixture-safety-report.pdf', bytes: SAFETY_REPORT_PDF, kind: 'pdf' },
    { name: 'fixture-table.pdf', bytes: tablePdf, kind: 'pdf' },
    { name: 'fixture-onboarding.docx', bytes: await onboardingDocx(), kind: 'docx' },
    {
      name: 'fixture-policy.docx',
      bytes: await docx(
        w.heading(1, 'Leave policy') +
          w.para('Staff accrue two days of leave per month.') +
          w.table([
            ['Grade', 'Days'],
            ['A', '24'],
          ]),
        { title: 'Leave policy' },
      ),
      kind: 'docx',
    },
    {
      name: 'fixture-page.html',
      bytes: enc.encode(
        '<!doctype html><html lang="en"><head><title>Visitors</title></head><body><main><h1>Visitors</h1>' +
          '<p>Visitors sign in at the front desk.</p><table><tr><th>Day</th><th>Hours</th></tr>' +
          '<tr><td>Mon</td><td>9-5</td></tr></table><ul><li>Badge</li><li>Escort</li></ul></main></body></html>',
      ),
      kind: 'html',
    },
    {
      name: 'fixture-notes.md',
      bytes: enc.encode(
        '# Notes\n\nThe backup runs nightly.\n\n## Restore\n\n- Stop the service\n- Copy the files\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      ),
      kind: 'markdown',
    },
    {
      name: 'fixture-plain.txt',
      bytes: enc.encode('The kettle is descaled every Friday.\n\nNobody likes it.\n'),
      kind: 'text',
    },
  ];
}

/** The shared good files, or none (with the reason) when `../shared/testdocs/good` is missing. */
export function sharedSeeds(): { seeds: Seed[]; missing?: string } {
  const dir = sharedPath('testdocs', 'good');
  if (!existsSync(dir)) return { seeds: [], missing: dir };
  const seeds = readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort()
    .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(path.join(dir, f))), kind: kindOf(f) }));
  return { seeds };
}

type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)] as T;

function flip(b: Uint8Array, r: Rand): Uint8Array {
  const out = b.slice();
  const n = 1 + int(r, 32);
  for (let i = 0; i < n && out.length > 0; i++) out[int(r, out.length)] = int(r, 256);
  return out;
}

function truncate(b: Uint8Array, r: Rand): Uint8Array {
  return b.slice(0, int(r, b.length));
}

function splice(b: Uint8Array, r: Rand): Uint8Array {
  const start = int(r, b.length);
  const len = 1 + int(r, Math.min(4096, b.length - start));
  const part = b.slice(start, start + len);
  if (r() < 0.5) return new Uint8Array([...b.subarray(0, start), ...b.subarray(start + len)]);
  const times = 2 + int(r, 20);
  const out = new Uint8Array(b.length + part.length * times);
  out.set(b.subarray(0, start));
  for (let k = 0; k < times; k++) out.set(part, start + k * part.length);
  out.set(b.subarray(start), start + part.length * times);
  return out;
}

function findAll(b: Uint8Array, sig: readonly number[]): number[] {
  const at: number[] = [];
  outer: for (let i = 0; i + sig.length <= b.length; i++) {
    for (let k = 0; k < sig.length; k++) if (b[i + k] !== sig[k]) continue outer;
    at.push(i);
  }
  return at;
}

const LOCAL = [0x50, 0x4b, 0x03, 0x04];
const CENTRAL = [0x50, 0x4b, 0x01, 0x02];

/** One ZIP entry's compressed data overwritten with noise (its CRC no longer matches). */
function zipCorrupt(b: Uint8Array, r: Rand): Uint8Array {
  const heads = findAll(b, LOCAL);
  if (heads.length === 0) return flip(b, r);
  const out = b.slice();
  const h = pick(r, heads);
  const dv = new DataView(out.buffer);
  const nameLen = dv.getUint16(h + 26, true);
  const extraLen = dv.getUint16(h + 28, true);
  const dataStart = h + 30 + nameLen + extraLen;
  const size = Math.max(1, Math.min(dv.getUint32(h + 18, true), out.length - dataStart));
  const n = 1 + int(r, Math.min(64, size));
  const from = dataStart + int(r, size);
  for (let i = 0; i < n && from + i < out.length; i++) out[from + i] = int(r, 256);
  return out;
}

/** One ZIP entry's compressed or uncompressed size rewritten, in its local or central header. */
function zipResize(b: Uint8Array, r: Rand): Uint8Array {
  const central = findAll(b, CENTRAL);
  const local = findAll(b, LOCAL);
  const useCentral = central.length > 0 && (local.length === 0 || r() < 0.5);
  const heads = useCentral ? central : local;
  if (heads.length === 0) return flip(b, r);
  const out = b.slice();
  const dv = new DataView(out.buffer);
  const h = pick(r, heads);
  const field = useCentral ? h + (r() < 0.5 ? 20 : 24) : h + (r() < 0.5 ? 18 : 22);
  if (field + 4 > out.length) return out;
  const old = dv.getUint32(field, true);
  const value = pick(r, [0, 1, old >>> 1, old + 1 + int(r, 1000), old * 1000, 0xffffffff, int(r, 0xffffffff)]);
  dv.setUint32(field, value >>> 0, true);
  return out;
}

const latin1 = new TextDecoder('latin1');
function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** One `/Length N` rewritten (shorter, longer, zero, huge, negative). */
function pdfLength(b: Uint8Array, r: Rand): Uint8Array {
  const s = latin1.decode(b);
  const found = [...s.matchAll(/\/Length\s+(\d+)/g)];
  if (found.length === 0) return flip(b, r);
  const m = pick(r, found);
  const old = Number(m[1]);
  const value = pick(r, [0, 1, Math.floor(old / 2), old + 1 + int(r, 5000), old * 100, 2147483647, -5]);
  const at = m.index ?? 0;
  return latin1Bytes(s.slice(0, at) + `/Length ${value}` + s.slice(at + m[0].length));
}

/** `startxref` or one xref entry's offset rewritten. */
function pdfXref(b: Uint8Array, r: Rand): Uint8Array {
  const s = latin1.decode(b);
  const entries = [...s.matchAll(/(\d{10}) (\d{5}) ([nf])/g)];
  const start = [...s.matchAll(/startxref\s+(\d+)/g)];
  if (entries.length > 0 && (start.length === 0 || r() < 0.6)) {
    const m = pick(r, entries);
    const value = String(int(r, s.length * 2))
      .padStart(10, '0')
      .slice(-10);
    const at = m.index ?? 0;
    return latin1Bytes(s.slice(0, at) + value + s.slice(at + 10));
  }
  if (start.length === 0) return flip(b, r);
  const m = pick(r, start);
  const at = m.index ?? 0;
  const value = pick(r, [0, 1, int(r, s.length), s.length + 100, 999999999]);
  return latin1Bytes(s.slice(0, at) + `startxref\n${value}` + s.slice(at + m[0].length));
}

/** HTML nested `depth` deep (divs, lists, tables or unclosed tags). */
function nestedHtml(r: Rand): { bytes: Uint8Array; what: string } {
  const depth = pick(r, [1_000, 10_000, 100_000]);
  const tag = pick(r, ['div', 'ul><li', 'table><tr><td', 'b', 'blockquote']);
  const open = `<${tag}>`;
  const close = tag
    .split('><')
    .reverse()
    .map((t) => `</${t}>`)
    .join('');
  const closed = r() < 0.5;
  const html = `<html><body><h1>Deep</h1>${open.repeat(depth)}<p>The bottom of the well.</p>${closed ? close.repeat(depth) : ''}</body></html>`;
  return { bytes: enc.encode(html), what: `nested-html(${tag.split('>')[0]}×${depth}${closed ? '' : ', unclosed'})` };
}

/** A DOCX with tables nested in tables, or content controls nested in content controls. */
async function nestedDocx(r: Rand): Promise<{ bytes: Uint8Array; what: string }> {
  const depth = pick(r, [50, 500, 5_000]);
  const sdt = r() < 0.5;
  let body = w.para('The innermost cell.');
  for (let i = 0; i < depth; i++) {
    body = sdt
      ? `<w:sdt><w:sdtContent>${body}</w:sdtContent></w:sdt>`
      : `<w:tbl><w:tr><w:tc>${body}<w:p/></w:tc></w:tr></w:tbl>`;
  }
  return { bytes: await docx(w.heading(1, 'Nested') + body), what: `nested-docx(${sdt ? 'sdt' : 'tbl'}×${depth})` };
}

/** A 50 MB file: text, Markdown, a PDF padded with a huge stream, or HTML. */
function big(seed: Seed, r: Rand): { bytes: Uint8Array; what: string; ext: string } {
  const kind = pick(r, ['text', 'pdf-padded', 'html', 'zeros'] as const);
  const out = new Uint8Array(BIG_BYTES);
  if (kind === 'pdf-padded' && seed.kind === 'pdf') {
    out.fill(0x20);
    out.set(seed.bytes.subarray(0, Math.min(seed.bytes.length, BIG_BYTES)));
    return { bytes: out, what: 'big-50MB(pdf+padding)', ext: '.pdf' };
  }
  if (kind === 'zeros') return { bytes: out, what: 'big-50MB(zeros)', ext: '.bin' };
  const unit = enc.encode(
    kind === 'html'
      ? '<p>The inspection log lists every valve checked this week, with its reading.</p>\n'
      : 'The inspection log lists every valve checked this week, with its reading.\n\n',
  );
  for (let at = 0; at < BIG_BYTES; at += unit.length)
    out.set(unit.subarray(0, Math.min(unit.length, BIG_BYTES - at)), at);
  return { bytes: out, what: `big-50MB(${kind})`, ext: kind === 'html' ? '.html' : '.txt' };
}

const GENERIC = ['flip', 'flip', 'truncate', 'splice'] as const;

/**
 * Case `index` of the run seeded `seed`. Most cases mutate a seed by a format-aware or generic
 * mutation; one in 60 is a deeply nested document, one in 100 a 1-byte file, one in 500 a 50 MB file.
 */
export async function makeCase(seeds: readonly Seed[], seed: number, index: number): Promise<FuzzCase> {
  const r = mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const base = seeds[index % seeds.length] as Seed;
  const one = (mutation: string, bytes: Uint8Array, fileName = base.name): FuzzCase => ({
    index,
    mutation,
    from: base.name,
    fileName,
    bytes,
  });
  if (index % 500 === 499) {
    const b = big(base, r);
    return one(b.what, b.bytes, `big${b.ext}`);
  }
  if (index % 100 === 37) {
    return one(
      'one-byte',
      new Uint8Array([int(r, 256)]),
      `one${pick(r, ['.pdf', '.docx', '.html', '.md', '.txt', ''])}`,
    );
  }
  if (index % 60 === 11) {
    const n = r() < 0.5 ? nestedHtml(r) : await nestedDocx(r);
    return one(n.what, n.bytes, n.what.startsWith('nested-html') ? 'nested.html' : 'nested.docx');
  }
  const specific: string[] =
    base.kind === 'docx' ? ['zip-corrupt', 'zip-resize'] : base.kind === 'pdf' ? ['pdf-length', 'pdf-xref'] : [];
  const mutation = pick(r, [...GENERIC, ...specific, ...specific]);
  const b = base.bytes;
  switch (mutation) {
    case 'flip':
      return one(mutation, flip(b, r));
    case 'truncate':
      return one(mutation, truncate(b, r));
    case 'splice':
      return one(mutation, splice(b, r));
    case 'zip-corrupt':
      return one(mutation, zipCorrupt(b, r));
    case 'zip-resize':
      return one(mutation, zipResize(b, r));
    case 'pdf-length':
      return one(mutation, pdfLength(b, r));
    default:
      return one('pdf-xref', pdfXref(b, r));
  }
}

// ---------------------------------------------------------------------------------------------
// One case through the parse path
// ---------------------------------------------------------------------------------------------

export type Verdict = 'ok' | 'known_error' | 'crash' | 'hang';

export interface CaseOutcome {
  readonly verdict: Verdict;
  /** `ok`, an error code, `hang`, or `crash`. */
  readonly outcome: string;
  readonly message?: string;
  readonly ms: number;
  /** CPU milliseconds of the case (user + system), where measured. */
  readonly cpuMs?: number;
  readonly chunks?: number;
}

const KNOWN = new Set<string>(ERROR_CODES.filter((c) => c !== 'internal'));

/** A message a user can read: short, one sentence or two, no stack, no JavaScript internals. */
export function plainMessage(m: string): boolean {
  return (
    m.trim().length >= 10 &&
    m.length <= 600 &&
    !/\n\s+at\s/.test(m) &&
    !/\b(?:undefined|null|NaN|\[object \w+\]|TypeError|RangeError|ReferenceError|SyntaxError|Cannot read)\b/.test(m)
  );
}

/** The verdict on what parsing threw. */
export function classifyError(err: unknown, ms: number): CaseOutcome {
  if (err instanceof EvidentError && KNOWN.has(err.code)) {
    return plainMessage(err.message)
      ? { verdict: 'known_error', outcome: err.code, message: err.message, ms }
      : { verdict: 'crash', outcome: `unclear_message:${err.code}`, message: err.message, ms };
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { verdict: 'crash', outcome: err instanceof EvidentError ? `internal` : 'crash', message, ms };
}

type Ingest = (bytes: Uint8Array, fileName: string) => Promise<{ chunks: readonly unknown[] }>;

/** The app's parse path in Node: `ingestBytes` with the USE tokenizer, OCR off. */
export async function appIngest(): Promise<Ingest> {
  const { ingestBytes, loadUseTokenizer } = await import('./ingest');
  const tokenizer = await loadUseTokenizer();
  return (bytes, fileName) => ingestBytes(bytes, fileName, (t) => tokenizer.count(t));
}

/** Runs one case in this process (no timeout: the parent enforces it). */
export async function runInProcess(ingest: Ingest, c: Pick<FuzzCase, 'bytes' | 'fileName'>): Promise<CaseOutcome> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const cpuMs = (): number => {
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / 1000;
  };
  try {
    const res = await ingest(c.bytes, c.fileName);
    return { verdict: 'ok', outcome: 'ok', ms: performance.now() - t0, cpuMs: cpuMs(), chunks: res.chunks.length };
  } catch (err) {
    return { ...classifyError(err, performance.now() - t0), cpuMs: cpuMs() };
  }
}

// ---------------------------------------------------------------------------------------------
// The child process
// ---------------------------------------------------------------------------------------------

type ToChild = { type: 'case'; index: number } | { type: 'file'; path: string; fileName: string };
type FromChild =
  { type: 'ready' } | { type: 'result'; outcome: CaseOutcome; rssMb: number; heapMb: number; maxRssMb: number };

async function childMain(seed: number, useShared: boolean): Promise<void> {
  const seeds = [...(useShared ? sharedSeeds().seeds : []), ...(await fixtureSeeds())];
  const ingest = await appIngest();
  const send = (m: FromChild): void => {
    process.send?.(m);
  };
  process.on('message', (m: ToChild) => {
    void (async () => {
      const c =
        m.type === 'case'
          ? await makeCase(seeds, seed, m.index)
          : { fileName: m.fileName, bytes: new Uint8Array(readFileSync(m.path)) };
      const outcome = await runInProcess(ingest, c);
      const mem = process.memoryUsage();
      send({
        type: 'result',
        outcome,
        rssMb: mem.rss / 2 ** 20,
        heapMb: mem.heapUsed / 2 ** 20,
        maxRssMb: process.resourceUsage().maxRSS / 1024,
      });
    })();
  });
  send({ type: 'ready' });
}

// ---------------------------------------------------------------------------------------------
// The campaign
// ---------------------------------------------------------------------------------------------

export interface FuzzOptions {
  readonly cases: number;
  readonly seed: number;
  readonly out?: string;
  /** Read the shared good files (default true; their absence is reported, not fatal). */
  readonly shared?: boolean;
  readonly timeoutMs?: number;
  readonly onCase?: (c: FailingCase | null, done: number) => void;
}

export interface FailingCase {
  readonly index: number;
  readonly mutation: string;
  readonly from: string;
  readonly fileName: string;
  readonly outcome: string;
  readonly message?: string;
  readonly ms: number;
  /** The case's bytes, written out to reproduce it (`--replay <file>`). */
  readonly file: string;
}

export interface FuzzTotals {
  readonly seed: number;
  readonly cases: number;
  readonly ok: number;
  readonly knownErrors: number;
  readonly crashes: number;
  readonly hangs: number;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly mutations: Readonly<Record<string, number>>;
  readonly seeds: readonly string[];
  readonly sharedMissing?: string;
  readonly peakRssMb: number;
  readonly peakHeapMb: number;
  /** The longest case in wall time, and in CPU time (`slowest` names the latter). */
  readonly slowestMs: number;
  readonly slowestCpuMs: number;
  readonly slowest: string;
  readonly childRestarts: number;
  readonly elapsedS: number;
  readonly failing: readonly FailingCase[];
}

const here = fileURLToPath(import.meta.url);

class Child {
  private proc: ChildProcess | null = null;
  restarts = 0;
  constructor(private readonly args: readonly string[]) {}

  private start(): Promise<ChildProcess> {
    const proc = fork(here, ['--child', ...this.args], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${CHILD_HEAP_MB}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // pdf.js warnings go to stderr; they are not outcomes.
    proc.stderr?.resume();
    return new Promise((resolve, reject) => {
      const onMsg = (m: FromChild): void => {
        if (m.type === 'ready') {
          proc.off('exit', onExit);
          proc.off('message', onMsg);
          resolve(proc);
        }
      };
      const onExit = (code: number | null): void => reject(new Error(`fuzz child exited during startup (${code})`));
      proc.on('message', onMsg);
      proc.once('exit', onExit);
    });
  }

  kill(): void {
    this.proc?.kill('SIGKILL');
    this.proc = null;
  }

  /** Runs one message; a hang kills the child (restarted on the next call), a death is a crash. */
  async run(
    msg: ToChild,
    timeoutMs: number,
  ): Promise<{ outcome: CaseOutcome; mem?: Omit<FromChild & { type: 'result' }, 'type' | 'outcome'> }> {
    if (this.proc === null) {
      this.proc = await this.start();
    }
    const proc = this.proc;
    const t0 = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const done = (v: Awaited<ReturnType<Child['run']>>, dead: boolean): void => {
        if (settled) return;
        settled = true;
        clearInterval(timer);
        proc.off('message', onMsg);
        proc.off('exit', onExit);
        if (dead) {
          this.kill();
          this.restarts++;
        }
        resolve(v);
      };
      const onMsg = (m: FromChild): void => {
        if (m.type === 'result') {
          done({ outcome: m.outcome, mem: { rssMb: m.rssMb, heapMb: m.heapMb, maxRssMb: m.maxRssMb } }, false);
        }
      };
      const onExit = (code: number | null, signal: string | null): void =>
        done(
          {
            outcome: {
              verdict: 'crash',
              outcome: 'process_crash',
              message: `the parsing process died (exit ${code}, signal ${signal}; out of memory past ${CHILD_HEAP_MB} MB heap?)`,
              ms: performance.now() - t0,
            },
          },
          true,
        );
      // The bound is on the child's CPU time (the machine may be shared: wall time there measures the
      // neighbours), with wall time capped at WALL_FACTOR times the bound where /proc is missing or stalls.
      const cpu0 = cpuMsOf(proc.pid);
      const timer = setInterval(() => {
        const wall = performance.now() - t0;
        const cpu = cpu0 === null ? null : (cpuMsOf(proc.pid) ?? cpu0) - cpu0;
        const over = cpu === null ? wall > timeoutMs : cpu > timeoutMs || wall > WALL_FACTOR * timeoutMs;
        if (over) {
          const what =
            cpu === null ? `${Math.round(wall)} ms` : `${Math.round(cpu)} ms of CPU (${Math.round(wall)} ms wall)`;
          done({ outcome: { verdict: 'hang', outcome: 'hang', message: `no result after ${what}`, ms: wall } }, true);
        }
      }, 250);
      proc.on('message', onMsg);
      proc.once('exit', onExit);
      proc.send(msg);
    });
  }
}

/** Wall time may reach this many times the CPU bound before a case counts as hung anyway. */
const WALL_FACTOR = 6;

/** User + system CPU milliseconds of process `pid` from /proc (Linux), or null where unreadable. */
function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name: indexes 11 and 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux build Node supports. */
const CLOCK_TICKS = 100;

const max = (a: number, b: number | undefined): number => (b !== undefined && b > a ? b : a);

/** Runs `cases` cases seeded `seed`, writing each failing case's bytes under `out`. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzTotals> {
  const t0 = performance.now();
  const useShared = options.shared ?? true;
  const shared = useShared ? sharedSeeds() : { seeds: [] };
  const seeds = [...shared.seeds, ...(await fixtureSeeds())];
  const out = options.out ?? (await mkdtemp(path.join(os.tmpdir(), 'evident-fuzz-')));
  await mkdir(out, { recursive: true });
  const child = new Child(['--seed', String(options.seed), ...(useShared ? [] : ['--no-shared'])]);
  const outcomes: Record<string, number> = {};
  const mutations: Record<string, number> = {};
  const failing: FailingCase[] = [];
  let ok = 0;
  let knownErrors = 0;
  let crashes = 0;
  let hangs = 0;
  let peakRssMb = 0;
  let peakHeapMb = 0;
  let slowestMs = 0;
  let slowestCpuMs = 0;
  let slowest = '';
  try {
    for (let index = 0; index < options.cases; index++) {
      const { outcome, mem } = await child.run({ type: 'case', index }, options.timeoutMs ?? CASE_TIMEOUT_MS);
      peakRssMb = max(max(peakRssMb, mem?.rssMb), mem?.maxRssMb);
      peakHeapMb = max(peakHeapMb, mem?.heapMb);
      outcomes[outcome.outcome] = (outcomes[outcome.outcome] ?? 0) + 1;
      const c = await makeCase(seeds, options.seed, index);
      const family = c.mutation.replace(/\(.*$/, '');
      mutations[family] = (mutations[family] ?? 0) + 1;
      if ((outcome.cpuMs ?? outcome.ms) > slowestCpuMs) {
        slowestCpuMs = outcome.cpuMs ?? outcome.ms;
        slowest = `#${index} ${c.mutation} of ${c.from}`;
      }
      if (outcome.ms > slowestMs) {
        slowestMs = outcome.ms;
      }
      let failed: FailingCase | null = null;
      if (outcome.verdict === 'ok') ok++;
      else if (outcome.verdict === 'known_error') knownErrors++;
      else {
        if (outcome.verdict === 'hang') hangs++;
        else crashes++;
        const file = path.join(out, `case-${options.seed}-${index}-${family}${path.extname(c.fileName)}`);
        await writeFile(file, c.bytes);
        failed = {
          index,
          mutation: c.mutation,
          from: c.from,
          fileName: c.fileName,
          outcome: outcome.outcome,
          ...(outcome.message !== undefined ? { message: outcome.message } : {}),
          ms: Math.round(outcome.ms),
          file,
        };
        failing.push(failed);
      }
      options.onCase?.(failed, index + 1);
    }
  } finally {
    child.kill();
  }
  return {
    seed: options.seed,
    cases: options.cases,
    ok,
    knownErrors,
    crashes,
    hangs,
    outcomes,
    mutations,
    seeds: seeds.map((s) => s.name),
    ...(shared.missing !== undefined ? { sharedMissing: shared.missing } : {}),
    peakRssMb: Math.round(peakRssMb),
    peakHeapMb: Math.round(peakHeapMb),
    slowestMs: Math.round(slowestMs),
    slowestCpuMs: Math.round(slowestCpuMs),
    slowest,
    childRestarts: child.restarts,
    elapsedS: Math.round((performance.now() - t0) / 100) / 10,
    failing,
  };
}

/** Parses one file in a child with the timeout (reproducing a written-out case). */
export async function replay(file: string, fileName = path.basename(file)): Promise<CaseOutcome> {
  const child = new Child(['--seed', '0', '--no-shared']);
  try {
    return (await child.run({ type: 'file', path: path.resolve(file), fileName }, CASE_TIMEOUT_MS)).outcome;
  } finally {
    child.kill();
  }
}

const USAGE =
  'npm run fuzz -- [--cases N (default 2000)] [--seed S (default 1)] [--json totals.json] [--out dir] [--replay file] [--no-shared]';

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--child') {
    const seed = Number(argv[argv.indexOf('--seed') + 1]);
    await childMain(seed, !argv.includes('--no-shared'));
    return new Promise(() => {}); // serves cases until the parent kills it
  }
  const cli = parseCli(
    argv,
    {
      cases: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      json: { type: 'string' },
      out: { type: 'string' },
      replay: { type: 'string' },
      'no-shared': { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (!cli.ok) return cli.exit;
  const v = cli.values;
  if (v.replay !== undefined) {
    const res = await replay(v.replay);
    console.log(JSON.stringify(res));
    return res.verdict === 'ok' || res.verdict === 'known_error' ? 0 : 1;
  }
  const cases = Number(v.cases);
  const seed = Number(v.seed);
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(seed)) {
    console.error(`--cases must be a positive whole number and --seed a whole number.\nusage: ${USAGE}`);
    return 2;
  }
  const totals = await runFuzz({
    cases,
    seed,
    ...(v.out !== undefined ? { out: v.out } : {}),
    shared: !v['no-shared'],
    onCase: (failed, done) => {
      if (failed)
        console.log(
          `#${failed.index} ${failed.outcome} ${failed.mutation} of ${failed.from}: ${failed.message ?? ''} → ${failed.file}`,
        );
      if (done % 100 === 0) console.log(`${done}/${cases} cases`);
    },
  });
  if (totals.sharedMissing) console.warn(`[notice] shared seeds missing (${totals.sharedMissing}); fixtures only`);
  const { failing, ...summary } = totals;
  console.log(JSON.stringify({ ...summary, failing: failing.length }, null, 2));
  if (v.json !== undefined) await writeFile(v.json, `${JSON.stringify(totals, null, 2)}\n`);
  return totals.crashes + totals.hangs > 0 ? 1 : 0;
}

runIfMain(import.meta.url, main);
