/**
 * Document QA over long documents: does the packed evidence hold the page that answers, and is a
 * released answer resting on it?
 *
 *   npm run eval -- --dataset ../shared/datasets/financebench-dev --docqa
 *                   [--json f] [--lexical-only] [--limit n] [--library single|all] [--verbose]
 *
 * The dataset is a folder with `questions.jsonl` (one object a line: `id`, `doc`, `question`,
 * `answer`, `evidence: [{page, text}]`, optionally `type`) and `docs/<doc>.pdf` (or any format the
 * app reads, matched by file name without extension). Anyone can point it at their own folder.
 *
 * Each document is ingested once with the app's own parser, chunker and embedder (the `Engine`
 * the worker runs, in memory), and each question is asked through the same `ask` the worker
 * runs. `single` (default): a library holding only the question's document; `all`: every
 * document in one library. Reported per question and on average: packet page hit (a packed
 * source lies on a gold page) beside the page hit of the top 5 / 20 / 100 retrieved chunks of the
 * same retrieval; outcome shares; answered without evidence (released — supported or partial —
 * with no gold page in the packet); for questions whose gold figure is printed on a gold page,
 * whether the released answer states it; tokens packed; ask latency; and per document the ingest
 * timeline (parse, chunk + index = searchable, embedded).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EvidentError } from '../core/errors';
import type { Chunk } from '../core/types';
import type { Embedder } from '../models/embedder';
import { embedWithCache } from '../node/embedding-cache';
import { nodePdfAssets } from '../node/pdf-assets';
import { chunkFormatOf, parseDocument, type ParsedDocument } from '../parse';
import { ask } from '../worker/ask';
import type { AskResult } from '../worker/ask-api';
import { Engine } from '../worker/engine';
import { SettingsHost } from '../worker/settings';
import { loadUseTokenizer } from './ingest';
import { releasedAnswerProblem, statesFigure, figuresOf } from './docqa-grade';

export interface DocQaQuestion {
  readonly id: string;
  readonly doc: string;
  readonly question: string;
  readonly answer: string;
  readonly type: string;
  readonly evidence: readonly { readonly page: number; readonly text: string; readonly pageText?: string }[];
}

export interface IngestTimeline {
  readonly doc: string;
  readonly pages: number;
  readonly chunks: number;
  readonly parseMs: number;
  /** Chunking and the BM25 update: the document is searchable by its words after parse + this. */
  readonly indexMs: number;
  /** Embedding its chunks (0 with `--lexical-only`). */
  readonly embedMs: number;
  readonly title: string;
  readonly sourceType: string;
}

export interface QuestionResult {
  readonly id: string;
  readonly doc: string;
  readonly type: string;
  readonly goldPages: readonly number[];
  readonly outcome: AskResult['outcome'];
  readonly answer: string;
  /** The short answer the UI shows first (a figure, a name), when the answerer gave one. */
  readonly short: string | null;
  readonly packetPages: readonly number[];
  readonly pageHit: boolean;
  /** Page hit of the top k retrieved chunks, per k of `BASELINE_DEPTHS`. */
  readonly topHit: Readonly<Record<string, boolean>>;
  readonly released: boolean;
  /** Released with no gold page in the packet. */
  readonly withoutEvidence: boolean;
  /** The gold figure is printed on a gold page (so an extractive answer could state it). */
  readonly figurePrinted: boolean;
  readonly figureStated: boolean;
  /** Why a released answer is not an answer (a heading, a label, too short), or null. */
  readonly answerProblem: string | null;
  readonly tokens: number;
  readonly askMs: number;
  /** The abstention decision's signals and probability (to fit and check the release rule). */
  readonly abstention: AskResult['abstention'];
  /** A cited source (one the answer's sentences cite) lies on a gold page. */
  readonly citedHit: boolean;
  /** Premise-directed inquiry ran (its trigger held). */
  readonly inquiryRan: boolean;
  /** The packet, or a record a follow-up query brought back (held already or not), lies on a gold page. */
  readonly inquiryHit: boolean;
  /** A computed answer's status and whether every operand cites a source of the result, else null. */
  readonly computed: { readonly status: 'complete' | 'partial'; readonly operandsCited: boolean } | null;
}

export const BASELINE_DEPTHS = [5, 20, 100] as const;

export interface DocQaReport {
  readonly dataset: string;
  readonly setting: 'single' | 'all';
  readonly lexicalOnly: boolean;
  readonly questions: readonly QuestionResult[];
  readonly documents: readonly IngestTimeline[];
}

// ---------------------------------------------------------------------------------------------
// Reading the dataset

function asQuestion(raw: unknown, line: number, file: string): DocQaQuestion {
  const o = raw as Record<string, unknown>;
  const bad = (what: string): never => {
    throw new EvidentError('invalid_input', `${file}, line ${line}: ${what}.`);
  };
  if (typeof o !== 'object' || o === null) bad('expected a JSON object');
  for (const k of ['doc', 'question'] as const)
    if (typeof o[k] !== 'string' || o[k] === '') bad(`"${k}" must be a string`);
  if (!Array.isArray(o.evidence)) bad('"evidence" must be a list of {page, text}');
  const evidence = (o.evidence as unknown[]).map((e) => {
    const ev = e as Record<string, unknown>;
    if (typeof ev?.page !== 'number' || !Number.isInteger(ev.page) || ev.page < 1)
      bad('an evidence page must be a 1-based integer');
    return {
      page: ev.page as number,
      text: typeof ev.text === 'string' ? ev.text : '',
      ...(typeof ev.page_text === 'string' ? { pageText: ev.page_text } : {}),
    };
  });
  return {
    id: typeof o.id === 'string' ? o.id : `line-${line}`,
    doc: o.doc as string,
    question: o.question as string,
    answer: typeof o.answer === 'string' ? o.answer : String(o.answer ?? ''),
    type: typeof o.type === 'string' ? o.type : 'all',
    evidence,
  };
}

export async function loadDocQa(dir: string): Promise<{ questions: DocQaQuestion[]; files: Map<string, string> }> {
  const file = path.join(dir, 'questions.jsonl');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new EvidentError(
      'invalid_input',
      `${file} is missing: a document-QA folder holds questions.jsonl and docs/.`,
    );
  }
  const questions: DocQaQuestion[] = [];
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
  const docsDir = path.join(dir, 'docs');
  const files = new Map<string, string>();
  for (const name of await readdir(docsDir).catch(() => [] as string[])) {
    files.set(name.replace(/\.[^.]+$/, ''), path.join(docsDir, name));
  }
  const missing = [...new Set(questions.map((q) => q.doc))].filter((d) => !files.has(d));
  if (missing.length > 0) {
    throw new EvidentError(
      'invalid_input',
      `No file in ${docsDir} for ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}.`,
    );
  }
  return { questions, files };
}

// ---------------------------------------------------------------------------------------------
// Ingesting as the app does

/** The USE-lite tokenizer without the model: chunk sizes as the app's, and no vectors. */
export async function keywordsOnlyEmbedder(): Promise<Embedder> {
  const tokenizer = await loadUseTokenizer();
  return {
    id: 'keywords-only',
    dim: 1,
    maxTokens: 128,
    countTokens: (t) => tokenizer.count(t),
    embed: () => Promise.reject(new EvidentError('internal', 'keywords-only: nothing is embedded.')),
    dispose: () => {},
  };
}

/** The embedder through the Node embedding cache (the same vectors; reruns skip the model). */
export function cached(embedder: Embedder): Embedder {
  return {
    id: embedder.id,
    dim: embedder.dim,
    maxTokens: embedder.maxTokens,
    countTokens: (t) => embedder.countTokens(t),
    embed: (texts, o) =>
      o?.kind === 'query'
        ? embedder.embed(texts, o)
        : embedWithCache(embedder, texts, {
            ...(o?.signal ? { signal: o.signal } : {}),
            ...(o?.onProgress ? { onProgress: o.onProgress } : {}),
          }),
    dispose: () => embedder.dispose(),
  };
}

interface Ingested {
  readonly parsed: ParsedDocument;
  readonly timeline: IngestTimeline;
}

export async function ingestInto(engine: Engine, doc: string, file: string): Promise<Ingested> {
  const t0 = performance.now();
  const parsed = await parseDocument(new Uint8Array(await readFile(file)), {
    ...nodePdfAssets(),
    fileName: path.basename(file),
  });
  const parseMs = performance.now() - t0;
  const m = parsed.metadata;
  const added = await engine.addDocument({
    docId: doc,
    title: parsed.title,
    text: parsed.text,
    format: chunkFormatOf(parsed.format),
    fileFormat: parsed.format,
    fileName: path.basename(file),
    sourceType: m.sourceTypeGuess,
    status: m.statusGuess,
    ...(m.effectiveDateGuess ? { effectiveDate: m.effectiveDateGuess } : {}),
    ...(parsed.pages ? { pages: parsed.pages } : {}),
  });
  return {
    parsed,
    timeline: {
      doc,
      pages: parsed.pages?.length ?? 0,
      chunks: added.chunks,
      parseMs,
      indexMs: added.chunkMs + added.indexMs,
      embedMs: added.embedMs,
      title: parsed.title,
      sourceType: m.sourceTypeGuess,
    },
  };
}

/** Pages a chunk's characters lie on (a chunk across a page break is on both). */
export function chunkPages(chunk: Chunk, parsed: ParsedDocument): number[] {
  const pages = parsed.pages;
  if (!pages || pages.length === 0) return chunk.page !== undefined ? [chunk.page] : [];
  const out: number[] = [];
  for (const p of pages) if (p.start < chunk.end && p.end > chunk.start) out.push(p.page);
  if (out.length === 0 && chunk.page !== undefined) out.push(chunk.page);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Asking and grading

/**
 * A question as the document-QA benchmarks ask it: the worker's `ask` (core/pipeline's answer
 * path) with the app's default settings, over the benchmark's engine.
 */
export function benchmarkAsk(engine: Engine, question: string): Promise<AskResult> {
  return ask({ engine, settings: new SettingsHost(() => null) }, question);
}

async function askOne(
  engine: Engine,
  q: DocQaQuestion,
  pagesOfChunk: (docId: string, chunkId: string) => number[],
): Promise<QuestionResult> {
  const t0 = performance.now();
  const result = await benchmarkAsk(engine, q.question);
  const askMs = performance.now() - t0;
  const gold = new Set(q.evidence.map((e) => e.page));
  const onGold = (docId: string, chunkId: string): boolean =>
    docId === q.doc && pagesOfChunk(docId, chunkId).some((p) => gold.has(p));
  const packetPages = [
    ...new Set(result.sources.filter((s) => s.docId === q.doc).flatMap((s) => pagesOfChunk(s.docId, s.chunkId))),
  ].sort((a, b) => a - b);
  const pageHit = result.sources.some((s) => onGold(s.docId, s.chunkId));
  const rounds = result.inquiry?.rounds ?? [];
  const inquiryHit = pageHit || rounds.some((r) => r.hits.some((h) => onGold(h.docId, h.id)));
  // The baselines read the same retrieval ask ran: its candidates keep their fused rank.
  const ranked = result.candidates.filter((c) => c.retrievalRank !== null);
  const topHit: Record<string, boolean> = {};
  for (const k of BASELINE_DEPTHS) {
    topHit[`top${k}`] = ranked.some((c) => (c.retrievalRank as number) <= k && onGold(c.docId, c.id));
  }
  const released = result.outcome === 'supported' || result.outcome === 'partial';
  const figures = figuresOf(q.answer);
  const goldPageText = q.evidence.map((e) => e.pageText ?? e.text).join('\n');
  const figurePrinted = figures.length > 0 && figures.some((f) => statesFigure(goldPageText, f));
  const answer = result.answer.text;
  const short = result.answer.short?.text ?? null;
  return {
    id: q.id,
    doc: q.doc,
    type: q.type,
    goldPages: [...gold].sort((a, b) => a - b),
    outcome: result.outcome,
    answer,
    short,
    packetPages,
    pageHit,
    topHit,
    released,
    withoutEvidence: released && !pageHit,
    inquiryRan: result.inquiry?.triggered === true,
    inquiryHit,
    figurePrinted,
    figureStated: released && figurePrinted && figures.some((f) => statesFigure(short ?? answer, f)),
    answerProblem: released ? releasedAnswerProblem(short ?? answer) : null,
    tokens: result.budget.used,
    askMs,
    abstention: result.abstention,
    citedHit: result.sources.some(
      (s) => result.answer.sentences.some((x) => x.citationIds.includes(s.citationId)) && onGold(s.docId, s.chunkId),
    ),
    computed: computedOf(result),
  };
}

function computedOf(result: AskResult): QuestionResult['computed'] {
  const c = result.answer.computed;
  if (!c) return null;
  const cited = new Set(result.sources.map((s) => s.citationId));
  return { status: c.status, operandsCited: c.operands.length > 0 && c.operands.every((o) => cited.has(o.citationId)) };
}

export interface DocQaOptions {
  readonly setting?: 'single' | 'all';
  readonly lexicalOnly?: boolean;
  /** The embedder for the default profile (USE lite in Node when absent and not lexical-only). */
  readonly embedder?: Embedder;
  readonly limit?: number;
  /** Progress: one line per ingested document. */
  readonly log?: (msg: string) => void;
  /** One line per question asked. */
  readonly logQuestion?: (msg: string) => void;
}

/** The libraries a benchmark asks: one per document (`single`) or one holding every document (`all`). */
export interface IngestedLibraries {
  readonly engines: ReadonlyMap<string, Engine>;
  readonly parsedOf: ReadonlyMap<string, ParsedDocument>;
  readonly timelines: readonly IngestTimeline[];
  /** Disposes the embedder when this call loaded it. */
  readonly dispose: () => void;
}

/**
 * Ingests `docs` with the app's parser, chunker and embedder (USE lite in Node unless
 * `lexicalOnly` or an `embedder` is given), one library per document or one for all.
 */
export async function ingestLibraries(
  docs: readonly string[],
  files: ReadonlyMap<string, string>,
  options: {
    readonly setting: 'single' | 'all';
    readonly lexicalOnly: boolean;
    readonly embedder?: Embedder;
    readonly log?: (index: number, doc: string, timeline: IngestTimeline) => void;
  },
): Promise<IngestedLibraries> {
  let embedder = options.embedder;
  let ownEmbedder = false;
  if (options.lexicalOnly) embedder = await keywordsOnlyEmbedder();
  else if (!embedder) {
    // Every core embeds (the cache's fill is bit-identical to one process; src/node/parallel-embedder.ts).
    const { fillProcesses, loadUseEmbedderNode } = await import('../node/use-node');
    embedder = cached((await loadUseEmbedderNode({ processes: fillProcesses() })).embedder);
    ownEmbedder = true;
  }
  const newEngine = (): Engine => {
    const e = new Engine({ vectors: !options.lexicalOnly });
    e.setEmbedder(embedder as Embedder);
    return e;
  };
  const timelines: IngestTimeline[] = [];
  const parsedOf = new Map<string, ParsedDocument>();
  const engines = new Map<string, Engine>();
  const shared = options.setting === 'all' ? newEngine() : null;
  for (const [i, doc] of docs.entries()) {
    const engine = shared ?? newEngine();
    const { parsed, timeline } = await ingestInto(engine, doc, files.get(doc) as string);
    parsedOf.set(doc, parsed);
    engines.set(doc, engine);
    timelines.push(timeline);
    options.log?.(i, doc, timeline);
  }
  return { engines, parsedOf, timelines, dispose: () => (ownEmbedder ? embedder?.dispose() : undefined) };
}

/** Ingests the documents and asks every question; see the file comment. */
export async function runDocQa(dir: string, options: DocQaOptions = {}): Promise<DocQaReport> {
  const { setting = 'single', lexicalOnly = false, log = () => {}, logQuestion = () => {} } = options;
  const { questions: all, files } = await loadDocQa(dir);
  const questions = options.limit !== undefined ? all.slice(0, options.limit) : all;
  const docs = [...new Set(questions.map((q) => q.doc))];
  const libraries = await ingestLibraries(docs, files, {
    setting,
    lexicalOnly,
    ...(options.embedder ? { embedder: options.embedder } : {}),
    log: (i, doc, timeline) =>
      log(
        `[${i + 1}/${docs.length}] ${doc}: ${timeline.pages} pages, ${timeline.chunks} chunks, parse ${(timeline.parseMs / 1000).toFixed(1)} s, searchable +${(timeline.indexMs / 1000).toFixed(1)} s, embedded +${(timeline.embedMs / 1000).toFixed(1)} s`,
      ),
  });
  const { engines, parsedOf, timelines } = libraries;
  const pagesOfChunk = (docId: string, chunkId: string): number[] => {
    const engine = engines.get(docId);
    const parsed = parsedOf.get(docId);
    const chunk = engine?.selectionView([docId]).chunks.get(chunkId);
    return chunk && parsed ? chunkPages(chunk, parsed) : [];
  };
  const results: QuestionResult[] = [];
  for (const [i, q] of questions.entries()) {
    const r = await askOne(engines.get(q.doc) as Engine, q, pagesOfChunk);
    results.push(r);
    logQuestion(
      `[${i + 1}/${questions.length}] ${q.id} ${r.outcome}${r.pageHit ? ' hit' : ''}${r.withoutEvidence ? ' WITHOUT-EVIDENCE' : ''}: ${r.answer.slice(0, 100).replace(/\s+/g, ' ')}`,
    );
  }
  libraries.dispose();
  return { dataset: path.basename(path.resolve(dir)), setting, lexicalOnly, questions: results, documents: timelines };
}

// ---------------------------------------------------------------------------------------------
// Metrics and the report

function share(rs: readonly QuestionResult[], f: (r: QuestionResult) => boolean): number {
  return rs.length === 0 ? 0 : rs.filter(f).length / rs.length;
}

function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}

export function docQaMetrics(rs: readonly QuestionResult[]): Record<string, number> {
  const printed = rs.filter((r) => r.figurePrinted);
  return {
    questions: rs.length,
    page_hit: share(rs, (r) => r.pageHit),
    answered: share(rs, (r) => r.released),
    answered_without_evidence: share(rs, (r) => r.withoutEvidence),
    supported: share(rs, (r) => r.outcome === 'supported'),
    partial: share(rs, (r) => r.outcome === 'partial'),
    conflict: share(rs, (r) => r.outcome === 'conflict'),
    abstain: share(rs, (r) => r.outcome === 'abstain'),
    figure_printed: printed.length,
    figure_stated: printed.length === 0 ? 0 : printed.filter((r) => r.figureStated).length / printed.length,
    answer_problems: rs.filter((r) => r.answerProblem !== null).length,
    tokens: rs.length === 0 ? 0 : rs.reduce((s, r) => s + r.tokens, 0) / rs.length,
    ask_ms_p50: percentile(
      rs.map((r) => r.askMs),
      50,
    ),
    ask_ms_p95: percentile(
      rs.map((r) => r.askMs),
      95,
    ),
  };
}

export function docQaJson(report: DocQaReport): object {
  return {
    dataset: report.dataset,
    setting: report.setting,
    lexicalOnly: report.lexicalOnly,
    configs: [
      { name: 'default', metrics: docQaMetrics(report.questions) },
      ...BASELINE_DEPTHS.map((k) => ({
        name: `top${k}`,
        metrics: {
          questions: report.questions.length,
          page_hit: share(report.questions, (r) => r.topHit[`top${k}`] === true),
        },
      })),
    ],
    byType: Object.fromEntries(
      [...new Set(report.questions.map((r) => r.type))].map((t) => [
        t,
        docQaMetrics(report.questions.filter((r) => r.type === t)),
      ]),
    ),
    questions: report.questions,
    documents: report.documents,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;

/** Page hit with and without the follow-up queries, on the questions inquiry ran for. */
function inquiryLine(questions: readonly QuestionResult[]): string {
  const ran = questions.filter((r) => r.inquiryRan);
  if (ran.length === 0) return 'inquiry ran on no question';
  const hit = (f: (r: QuestionResult) => boolean): string => pct(ran.filter(f).length / ran.length);
  return `inquiry ran on ${ran.length} of ${questions.length} questions; their page hit: packet ${hit((r) => r.pageHit)}, with what follow-up queries brought back ${hit((r) => r.inquiryHit)}`;
}

export function formatDocQa(report: DocQaReport): string {
  const groups: [string, QuestionResult[]][] = [
    ['all', [...report.questions]],
    ...[...new Set(report.questions.map((r) => r.type))]
      .sort()
      .map((t): [string, QuestionResult[]] => [t, report.questions.filter((r) => r.type === t)]),
  ];
  const head = [
    'questions',
    'n',
    'packet hit',
    'top-5',
    'top-20',
    'top-100',
    'answered',
    'w/o evidence',
    'supported',
    'partial',
    'conflict',
    'abstain',
    'figure stated',
  ];
  const rows = groups.map(([name, rs]) => {
    const m = docQaMetrics(rs);
    const printed = rs.filter((r) => r.figurePrinted).length;
    return [
      name,
      String(rs.length),
      pct(m.page_hit!),
      ...BASELINE_DEPTHS.map((k) => pct(share(rs, (r) => r.topHit[`top${k}`] === true))),
      pct(m.answered!),
      pct(m.answered_without_evidence!),
      pct(m.supported!),
      pct(m.partial!),
      pct(m.conflict!),
      pct(m.abstain!),
      `${rs.filter((r) => r.figureStated).length}/${printed}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const m = docQaMetrics(report.questions);
  const docs = report.documents;
  const biggest = docs.reduce<IngestTimeline | null>((b, d) => (b === null || d.pages > b.pages ? d : b), null);
  return [
    `${report.dataset}: ${report.questions.length} questions, ${docs.length} documents, library ${report.setting}${report.lexicalOnly ? ', keywords only' : ''}`,
    line(head),
    ...rows.map(line),
    inquiryLine(report.questions),
    `tokens packed ${m.tokens!.toFixed(0)} on average; ask p50 ${m.ask_ms_p50!.toFixed(0)} ms, p95 ${m.ask_ms_p95!.toFixed(0)} ms; released answers that are no answer (heading, label, too short): ${m.answer_problems}`,
    ...(biggest
      ? [
          `largest document ${biggest.doc} (${biggest.pages} pages, ${biggest.chunks} chunks): parsed ${(biggest.parseMs / 1000).toFixed(1)} s, searchable ${((biggest.parseMs + biggest.indexMs) / 1000).toFixed(1)} s, embedded ${((biggest.parseMs + biggest.indexMs + biggest.embedMs) / 1000).toFixed(1)} s`,
        ]
      : []),
  ].join('\n');
}

export async function docQaMain(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      docqa: { type: 'boolean', default: false },
      json: { type: 'string' },
      'lexical-only': { type: 'boolean', default: false },
      limit: { type: 'string' },
      library: { type: 'string', default: 'single' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help || !values.dataset) {
    console.log(
      'usage: npm run eval -- --dataset <folder with questions.jsonl and docs/> --docqa [--json f] [--lexical-only] [--limit n] [--library single|all] [--verbose]',
    );
    return values.help ? 0 : 2;
  }
  if (values.library !== 'single' && values.library !== 'all') {
    throw new EvidentError('invalid_option', `--library must be single or all, got ${values.library}.`);
  }
  const limit = values.limit !== undefined ? Number(values.limit) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new EvidentError('invalid_option', `--limit must be a positive integer, got ${values.limit}.`);
  }
  const log = (msg: string): void => console.error(`[docqa] ${msg}`);
  const report = await runDocQa(values.dataset, {
    setting: values.library,
    lexicalOnly: values['lexical-only'],
    ...(limit !== undefined ? { limit } : {}),
    log,
    ...(values.verbose ? { logQuestion: log } : {}),
  });
  console.log(formatDocQa(report));
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(docQaJson(report), null, 2)}\n`);
    log(`wrote ${values.json}`);
  }
  return 0;
}
