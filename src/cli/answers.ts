/**
 * The answers benchmark (issue 26, item 5): is the answer the user reads first right?
 *
 *   npm run eval -- --dataset DIR --answers [--json f] [--lexical-only] [--limit n] [--every n]
 *                   [--library single|all] [--verbose]
 *
 * DIR is a document-QA folder: `questions.jsonl`, one object a line — `id`, `doc`, `question`,
 * `answer` (a string, or null when the document does not answer it), optionally `answers`
 * (accepted alternatives, or the spans of a `multi-span` / `list` gold), `type`, `scale`,
 * `derivation` (TAT-QA) and `evidence: [{page?, text?}]` — and the documents: `docs/<doc>.<ext>`,
 * and/or `docs.json` mapping a doc id to a path, so a question set can point at documents it does
 * not copy. A relative path in `docs.json` is relative to the repository root; one that starts
 * with `../shared/` follows `$EVIDENT_SHARED` when it is set, as the tests do.
 *
 * Each document is ingested with the app's own parser, chunker and embedder (the `Engine` the
 * worker runs, through docqa's `ingestInto`), and each question is asked through the same `ask`
 * the worker runs; by default in a library holding only its document (`--library all`: every
 * document in one library). `--every n` asks every n-th question (the 1st, the n+1-th, …), then
 * `--limit n` keeps the first n of those. Grading is in `answers-grade.ts` and never uses the
 * answerer's own checks. Reported per corpus and per question type (and per document for up to
 * 12 documents): right, wrong, refused (abstain or conflict), evidenced (rule (c): a long
 * explanation released citing a gold page), evidence hit, refused with evidence; time per
 * question. `--json` writes `{dataset, corpus, …, configs: [{name, metrics}], byType, questions}`.
 */
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EvidentError } from '../core/errors';
import type { Embedder } from '../models/embedder';
import { sharedRoot } from '../node/shared-data';
import type { AskResult } from '../worker/ask-api';
import type { Engine } from '../worker/engine';
import {
  evidenceHit,
  gradeAnswer,
  readFirst,
  type GoldAnswer,
  type Grade,
  type GradeRule,
  type PackedPassage,
} from './answers-grade';
import { benchmarkAsk, chunkPages, ingestLibraries, type IngestTimeline } from './docqa';

export interface AnswersQuestion {
  readonly id: string;
  readonly doc: string;
  readonly question: string;
  /** Null: the document does not answer it (any release is wrong). */
  readonly answer: string | null;
  readonly answers: readonly string[];
  readonly type: string;
  readonly scale: string;
  readonly derivation: string;
  readonly evidence: readonly { readonly page: number | null; readonly text: string }[];
}

export interface AnswerRecord {
  /** The grade of the answer as if it were released (refused ones included). */
  readonly wouldBe: Grade;
  readonly reason: string | null;
  /** The release decision's probability and signals (AskResult.abstention). */
  readonly abstention: unknown;
  readonly id: string;
  readonly doc: string;
  readonly type: string;
  readonly question: string;
  readonly gold: string | null;
  readonly outcome: AskResult['outcome'];
  readonly released: boolean;
  readonly grade: Grade;
  readonly rule: GradeRule;
  /** What the user reads first (short answer, else answer text; no citation marks). */
  readonly read: string;
  /** The answer text under the short answer (its sentences; no citation marks). */
  readonly answerText: string;
  /** The grade `answerText` would get if it were read first (no short answer shown). */
  readonly textWouldBe: Grade;
  readonly evidenceHit: boolean;
  readonly goldPages: readonly number[];
  readonly packetPages: readonly number[];
  /** Pages of the passages the released answer cites (its sentences' and its short answer's). */
  readonly citedPages: readonly number[];
  readonly askMs: number;
}

export interface AnswersReport {
  readonly dataset: string;
  readonly setting: 'single' | 'all';
  readonly lexicalOnly: boolean;
  /** Every n-th question was asked (1: all). */
  readonly every: number;
  readonly questions: readonly AnswerRecord[];
  readonly documents: readonly IngestTimeline[];
  /** Wall time of the whole run: ingest and asking. */
  readonly wallMs: number;
}

// ---------------------------------------------------------------------------------------------
// Reading the dataset

/** The repository root (this file is src/cli/answers.ts). */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a `docs.json` path points: `../shared/…` under the shared root, other relative paths under the repository root. */
export function resolveDocPath(p: string, repoRoot = REPO_ROOT): string {
  if (path.isAbsolute(p)) return p;
  const norm = p.split(path.sep).join('/');
  if (norm.startsWith('../shared/')) return path.join(sharedRoot(), norm.slice('../shared/'.length));
  return path.resolve(repoRoot, p);
}

function asQuestion(raw: unknown, line: number, file: string): AnswersQuestion {
  const bad = (what: string): never => {
    throw new EvidentError('invalid_input', `${file}, line ${line}: ${what}.`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('expected a JSON object');
  const o = raw as Record<string, unknown>;
  for (const k of ['doc', 'question'] as const)
    if (typeof o[k] !== 'string' || o[k] === '') bad(`"${k}" must be a non-empty string`);
  if (!('answer' in o) || (o.answer !== null && typeof o.answer !== 'string' && typeof o.answer !== 'number'))
    bad('"answer" must be a string, or null for a question the document does not answer');
  const answers = o.answers === undefined ? [] : o.answers;
  if (!Array.isArray(answers) || answers.some((a) => typeof a !== 'string')) bad('"answers" must be a list of strings');
  const evidence = o.evidence === undefined ? [] : o.evidence;
  if (!Array.isArray(evidence)) bad('"evidence" must be a list of {page, text}');
  return {
    id: typeof o.id === 'string' ? o.id : `line-${line}`,
    doc: o.doc as string,
    question: o.question as string,
    answer: o.answer === null ? null : String(o.answer),
    answers: answers as string[],
    type: typeof o.type === 'string' && o.type !== '' ? o.type : 'all',
    scale: typeof o.scale === 'string' ? o.scale : '',
    derivation: typeof o.derivation === 'string' ? o.derivation : '',
    evidence: (evidence as unknown[]).map((e) => {
      const ev = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
      if (ev.page !== undefined && ev.page !== null && (!Number.isInteger(ev.page) || (ev.page as number) < 1))
        bad('an evidence page must be a 1-based integer or null');
      return {
        page: typeof ev.page === 'number' ? ev.page : null,
        text: typeof ev.text === 'string' ? ev.text : '',
      };
    }),
  };
}

export async function loadAnswersDataset(
  dir: string,
): Promise<{ questions: AnswersQuestion[]; files: Map<string, string> }> {
  const file = path.join(dir, 'questions.jsonl');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new EvidentError(
      'dataset_missing',
      `${file} is missing: a document-QA folder holds questions.jsonl and docs/ or docs.json.`,
    );
  }
  const questions: AnswersQuestion[] = [];
  text.split('\n').forEach((l, i) => {
    if (l.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(l);
    } catch {
      throw new EvidentError('invalid_input', `${file}, line ${i + 1}: not valid JSON.`);
    }
    questions.push(asQuestion(raw, i + 1, file));
  });
  const files = new Map<string, string>();
  const docsDir = path.join(dir, 'docs');
  for (const name of await readdir(docsDir).catch(() => [] as string[])) {
    files.set(name.replace(/\.[^.]+$/, ''), path.join(docsDir, name));
  }
  const mapFile = path.join(dir, 'docs.json');
  const mapText = await readFile(mapFile, 'utf8').catch(() => null);
  if (mapText !== null) {
    let map: unknown;
    try {
      map = JSON.parse(mapText);
    } catch {
      throw new EvidentError('invalid_input', `${mapFile}: not valid JSON.`);
    }
    if (typeof map !== 'object' || map === null || Array.isArray(map))
      throw new EvidentError('invalid_input', `${mapFile}: expected an object mapping a doc id to a path.`);
    for (const [doc, p] of Object.entries(map)) {
      if (typeof p !== 'string' || p === '')
        throw new EvidentError('invalid_input', `${mapFile}: the path of "${doc}" must be a string.`);
      files.set(doc, resolveDocPath(p));
    }
  }
  const docs = [...new Set(questions.map((q) => q.doc))];
  const missing = docs.filter((d) => !files.has(d));
  if (missing.length > 0) {
    throw new EvidentError(
      'invalid_input',
      `No file for ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} in ${docsDir} or ${mapFile}.`,
    );
  }
  for (const d of docs) {
    const f = files.get(d) as string;
    await access(f).catch(() => {
      throw new EvidentError('dataset_missing', `The file of "${d}" is missing: ${f}.`);
    });
  }
  return { questions, files };
}

/** Every n-th question (the 1st, the n+1-th, …), then the first `limit` of those. */
export function selectQuestions<T>(all: readonly T[], every = 1, limit?: number): T[] {
  const picked = all.filter((_, i) => i % every === 0);
  return limit !== undefined ? picked.slice(0, limit) : picked;
}

// ---------------------------------------------------------------------------------------------
// Asking and grading

export interface AnswersOptions {
  readonly setting?: 'single' | 'all';
  readonly lexicalOnly?: boolean;
  /** The embedder for the default profile (USE lite in Node when absent and not lexical-only). */
  readonly embedder?: Embedder;
  readonly every?: number;
  readonly limit?: number;
  /** One line per ingested document, and a progress line now and then. */
  readonly log?: (msg: string) => void;
  /** One line per question asked. */
  readonly logQuestion?: (msg: string) => void;
}

function goldOf(q: AnswersQuestion): GoldAnswer {
  return {
    answer: q.answer,
    question: q.question,
    answers: q.answers,
    type: q.type,
    scale: q.scale,
    derivation: q.derivation,
    evidenceTexts: q.evidence.map((e) => e.text),
    goldPages: [...new Set(q.evidence.flatMap((e) => (e.page !== null ? [e.page] : [])))].sort((a, b) => a - b),
  };
}

/** Ingests the documents and asks the selected questions; see the file comment. */
export async function runAnswers(dir: string, options: AnswersOptions = {}): Promise<AnswersReport> {
  const { setting = 'single', lexicalOnly = false, every = 1, log = () => {}, logQuestion = () => {} } = options;
  const t0 = performance.now();
  const { questions: all, files } = await loadAnswersDataset(dir);
  const questions = selectQuestions(all, every, options.limit);
  const docs = [...new Set(questions.map((q) => q.doc))];
  const libraries = await ingestLibraries(docs, files, {
    setting,
    lexicalOnly,
    ...(options.embedder ? { embedder: options.embedder } : {}),
    log: (i, doc, timeline) => {
      if (docs.length <= 50 || (i + 1) % 50 === 0 || i + 1 === docs.length)
        log(
          `[${i + 1}/${docs.length}] ${doc}: ${timeline.pages} pages, ${timeline.chunks} chunks, ${((timeline.parseMs + timeline.indexMs + timeline.embedMs) / 1000).toFixed(1)} s`,
        );
    },
  });
  const { engines, parsedOf, timelines } = libraries;
  const pagesOf = (docId: string, chunkId: string): number[] => {
    const chunk = engines.get(docId)?.selectionView([docId]).chunks.get(chunkId);
    const parsed = parsedOf.get(docId);
    return chunk && parsed ? chunkPages(chunk, parsed) : [];
  };

  const records: AnswerRecord[] = [];
  for (const [i, q] of questions.entries()) {
    const tq = performance.now();
    const result = await benchmarkAsk(engines.get(q.doc) as Engine, q.question);
    const askMs = performance.now() - tq;
    const gold = goldOf(q);
    // Pages count on the question's own document only; words count in any packed passage.
    const ownPages = (s: { docId: string; chunkId: string }): number[] =>
      s.docId === q.doc ? pagesOf(s.docId, s.chunkId) : [];
    const packet: PackedPassage[] = result.sources.map((s) => ({ text: s.text, pages: ownPages(s) }));
    const released = result.outcome === 'supported' || result.outcome === 'partial';
    const citedIds = new Set(result.answer.sentences.flatMap((s) => s.citationIds));
    if (result.answer.short) citedIds.add(result.answer.short.citationId);
    const citedPages = uniqueSorted(result.sources.filter((s) => citedIds.has(s.citationId)).flatMap(ownPages));
    const read = readFirst(result.answer);
    const goldPages = gold.goldPages ?? [];
    const citesGoldPage = citedPages.some((p) => goldPages.includes(p));
    const graded = gradeAnswer(gold, released ? { read, citesGoldPage } : null);
    // The grade the answer would get if released: what the release decision is fitted to.
    const wouldBe = gradeAnswer(gold, { read, citesGoldPage }).grade;
    const answerText = readFirst({ text: result.answer.text, short: null });
    const textWouldBe = gradeAnswer(gold, { read: answerText, citesGoldPage }).grade;
    const record: AnswerRecord = {
      wouldBe,
      reason: result.reason,
      abstention: result.abstention,
      id: q.id,
      doc: q.doc,
      type: q.type,
      question: q.question,
      gold: q.answer,
      outcome: result.outcome,
      released,
      grade: graded.grade,
      rule: graded.rule,
      read,
      answerText,
      textWouldBe,
      evidenceHit: evidenceHit(gold, packet),
      goldPages,
      packetPages: uniqueSorted(packet.flatMap((p) => p.pages)),
      citedPages,
      askMs,
    };
    records.push(record);
    logQuestion(
      `[${i + 1}/${questions.length}] ${q.id} ${record.outcome} ${record.grade}${record.evidenceHit ? ' hit' : ''}: ${read.slice(0, 100)}`,
    );
    if ((i + 1) % 100 === 0) log(`${i + 1}/${questions.length} questions asked`);
  }
  libraries.dispose();
  return {
    dataset: path.basename(path.resolve(dir)),
    setting,
    lexicalOnly,
    every,
    questions: records,
    documents: timelines,
    wallMs: performance.now() - t0,
  };
}

function uniqueSorted(xs: readonly number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Metrics and the report

function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}

interface Counts {
  readonly questions: number;
  readonly right: number;
  readonly wrong: number;
  readonly refused: number;
  readonly evidenced: number;
  readonly evidence_hit: number;
  readonly refused_with_evidence: number;
}

export function answersCounts(rs: readonly AnswerRecord[]): Counts {
  const n = (f: (r: AnswerRecord) => boolean): number => rs.filter(f).length;
  return {
    questions: rs.length,
    right: n((r) => r.grade === 'right'),
    wrong: n((r) => r.grade === 'wrong'),
    refused: n((r) => r.grade === 'refused'),
    evidenced: n((r) => r.grade === 'evidenced'),
    evidence_hit: n((r) => r.evidenceHit),
    refused_with_evidence: n((r) => r.grade === 'refused' && r.evidenceHit),
  };
}

/** Shares of the questions (as the other modes' `configs[].metrics`), the count, and ask latency. */
export function answersMetrics(rs: readonly AnswerRecord[]): Record<string, number> {
  const c = answersCounts(rs);
  const share = (k: number): number => (c.questions === 0 ? 0 : k / c.questions);
  const ms = rs.map((r) => r.askMs);
  return {
    questions: c.questions,
    right: share(c.right),
    wrong: share(c.wrong),
    refused: share(c.refused),
    evidenced: share(c.evidenced),
    evidence_hit: share(c.evidence_hit),
    refused_with_evidence: share(c.refused_with_evidence),
    ask_ms_p50: percentile(ms, 50),
    ask_ms_p95: percentile(ms, 95),
  };
}

function groups(report: AnswersReport): [string, AnswerRecord[]][] {
  const qs = report.questions;
  const by = (key: (r: AnswerRecord) => string): [string, AnswerRecord[]][] =>
    [...new Set(qs.map(key))].sort().map((k): [string, AnswerRecord[]] => [k, qs.filter((r) => key(r) === k)]);
  const types = by((r) => r.type);
  const docs = new Set(qs.map((r) => r.doc)).size;
  return [
    ['all', [...qs]],
    ...(types.length > 1 ? types.map(([k, rs]): [string, AnswerRecord[]] => [`type ${k}`, rs]) : []),
    ...(docs > 1 && docs <= 12 ? by((r) => r.doc).map(([k, rs]): [string, AnswerRecord[]] => [`doc ${k}`, rs]) : []),
  ];
}

export function answersJson(report: AnswersReport): object {
  const ingestMs = report.documents.reduce((s, d) => s + d.parseMs + d.indexMs + d.embedMs, 0);
  return {
    dataset: report.dataset,
    corpus: report.dataset,
    setting: report.setting,
    lexicalOnly: report.lexicalOnly,
    every: report.every,
    configs: [{ name: 'default', metrics: answersMetrics(report.questions) }],
    counts: answersCounts(report.questions),
    byType: Object.fromEntries(
      [...new Set(report.questions.map((r) => r.type))]
        .sort()
        .map((t) => [t, answersCounts(report.questions.filter((r) => r.type === t))]),
    ),
    timing: {
      wall_ms: report.wallMs,
      ingest_ms: ingestMs,
      ms_per_question: report.questions.length === 0 ? 0 : report.wallMs / report.questions.length,
    },
    questions: report.questions,
    documents: report.documents,
  };
}

export function formatAnswers(report: AnswersReport): string {
  const head = ['questions', 'n', 'right', 'wrong', 'refused', 'evidenced', 'evidence hit', 'refused w/ evidence'];
  const cell = (k: number, n: number): string => `${k} (${n === 0 ? 0 : Math.round((k / n) * 100)}%)`;
  const rows = groups(report).map(([name, rs]) => {
    const c = answersCounts(rs);
    return [
      name,
      String(c.questions),
      cell(c.right, c.questions),
      cell(c.wrong, c.questions),
      cell(c.refused, c.questions),
      cell(c.evidenced, c.questions),
      cell(c.evidence_hit, c.questions),
      cell(c.refused_with_evidence, c.questions),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const m = answersMetrics(report.questions);
  const n = report.questions.length;
  const ingestMs = report.documents.reduce((s, d) => s + d.parseMs + d.indexMs + d.embedMs, 0);
  return [
    `${report.dataset}: ${n} questions${report.every > 1 ? ` (1 in ${report.every})` : ''}, ${report.documents.length} documents, library ${report.setting}${report.lexicalOnly ? ', keywords only' : ''}`,
    line(head),
    ...rows.map(line),
    `time: ${(report.wallMs / 1000).toFixed(1)} s in all (ingest ${(ingestMs / 1000).toFixed(1)} s), ${n === 0 ? 0 : (report.wallMs / n / 1000).toFixed(2)} s per question; ask p50 ${m.ask_ms_p50!.toFixed(0)} ms, p95 ${m.ask_ms_p95!.toFixed(0)} ms`,
  ].join('\n');
}

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new EvidentError('invalid_option', `--${name} must be a positive integer, got ${v}.`);
  return n;
}

export async function answersMain(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      answers: { type: 'boolean', default: false },
      json: { type: 'string' },
      'lexical-only': { type: 'boolean', default: false },
      limit: { type: 'string' },
      every: { type: 'string' },
      library: { type: 'string', default: 'single' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help || !values.dataset) {
    console.log(
      'usage: npm run eval -- --dataset <folder with questions.jsonl and docs/ or docs.json> --answers [--json f] [--lexical-only] [--limit n] [--every n] [--library single|all] [--verbose]',
    );
    return values.help ? 0 : 2;
  }
  if (values.library !== 'single' && values.library !== 'all') {
    throw new EvidentError('invalid_option', `--library must be single or all, got ${values.library}.`);
  }
  const limit = positiveInt('limit', values.limit);
  const every = positiveInt('every', values.every);
  const log = (msg: string): void => console.error(`[answers] ${msg}`);
  const report = await runAnswers(values.dataset, {
    setting: values.library,
    lexicalOnly: values['lexical-only'],
    ...(limit !== undefined ? { limit } : {}),
    ...(every !== undefined ? { every } : {}),
    log,
    ...(values.verbose ? { logQuestion: log } : {}),
  });
  console.log(formatAnswers(report));
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(answersJson(report), null, 2)}\n`);
    log(`wrote ${values.json}`);
  }
  return 0;
}
