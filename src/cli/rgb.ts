/**
 * RGB counterfactual robustness (Chen et al. 2024, English fact set): poisoned and conflicting
 * evidence, two threat models.
 *
 *   tsx src/cli/rgb.ts --dataset ../shared/datasets/rgb-counterfactual --threat honest|spoofed
 *                      [--ids 50-99] [--json out.json] [--dense]
 *
 * One small corpus per question: its `positive` passages (true answer), `positive_wrong` (the same
 * passages edited to state the fake answer) and `negative` (topical noise), each passage one
 * document under a neutral, shuffled id. Source types:
 *   - honest: edited passages are ai_generated / user_generated, true ones government /
 *     established_news / peer_reviewed, negatives a seeded random mix of all types;
 *   - spoofed: every passage claims the same credible type (government).
 * Pipeline: the engine's retrieval (term-weighted BM25, plus USE-lite dense with `--dense`, weighted
 * fusion) → selectEvidence with verify →
 * extractive answer → abstention decision → outcome. Beside it in the same run: the baseline (top-5
 * by similarity, the same answerer, nothing else) and the clean ceiling (the full pipeline with the
 * edited passages removed).
 *
 * Outcomes per question: correct (states the true answer and not the fake), attack (states the
 * fake), conflict (states both sides as a conflict), abstain, wrong (anything else). Metrics:
 * poisoned share of the packed evidence, attack success, accuracy, conflict and abstention rates,
 * safe accuracy (correct, conflict or abstain), wrong answers, and span accuracy (correct with a
 * short answer span that is itself one of the true answer's aliases). Tune on ids 0–49; report on 50–99 (the default).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EvidentError } from '../core/errors';
import { Bm25Index } from '../core/lexical/bm25';
import { fuse } from '../core/retrieval/fusion';
import { searchWithTermWeights } from '../core/retrieval/term-weights';
import { DEFAULT_ENGINE_OPTIONS } from '../worker/engine';
import type { Candidate, Hit, SourceType } from '../core/types';
import type { EvidencePacket } from '../core/select/packet';
import type { SelectionOptions } from '../core/select/select';
import type { PackedSource } from '../core/select/pack';
import { buildCorpus, type FixtureDoc } from '../core/select/testing';
import { answerExtractive, type Answer } from '../core/answer/extractive';
import type { AbstentionDecision, AbstentionSignals } from '../core/answer/abstain';
import { answerQuestion } from '../core/pipeline/answer-question';
import { candidateLibrary } from '../core/pipeline/candidate-library';
import { foldText } from '../core/verify/values';
import { mulberry32 } from '../core/util/prng';
import { formatTable, parseCli, pct, readJsonl, runIfMain } from './common';
import { isPeerDefense, peerDefense, peerDefenseNotes } from './rgb-defenses';

export const THREATS = ['honest', 'spoofed'] as const;
export type Threat = (typeof THREATS)[number];
/**
 * evident: the full pipeline; baseline-top5: top 5 by similarity, same answerer; clean-ceiling: the
 * full pipeline without the edited passages; single-source: the full pipeline on one true passage
 * (the first that states the answer) among the negatives, as in a user's own library where one
 * document states the fact and nothing corroborates it; no-evidence: the full pipeline on the
 * negatives alone (nothing answers the question: every answer there should be an abstention);
 * library: the single true passage among off-topic passages (other questions' negatives, as many
 * as the question has, from the same id range), as in a library where the one document that
 * states the fact sits among documents about other things; library-no-evidence: those off-topic
 * passages alone; trustrag-cluster and robustrag-keyword: two published defenses over the same
 * top 5 as the baseline, with the same answerer (see rgb-defenses.ts).
 */
export const RGB_CONFIGS = [
  'evident',
  'baseline-top5',
  'trustrag-cluster',
  'robustrag-keyword',
  'clean-ceiling',
  'single-source',
  'no-evidence',
  'library',
  'library-no-evidence',
] as const;
export type RgbConfigName = (typeof RGB_CONFIGS)[number];

/** RGB `answer`: a string, or (nested) lists of aliases. */
export type Aliases = string | readonly Aliases[];

/**
 * Selection options of the RGB runs: the engine's defaults, as the app runs them. Until the factoid
 * floor (select/factoid-floor.ts) the runs set `cutoff.minKeep 5` here (chosen on ids 0–49, see the
 * README of src/core/verify), which the app did not: at its cutoff of one passage, RGB 50–99
 * accuracy was 50 % (honest) against the 82 % reported. The floor now keeps five in the app too
 * wherever several documents answer the question.
 */
export const RGB_SELECTION: Partial<SelectionOptions> = Object.freeze({});

export interface RgbRow {
  readonly id: number;
  readonly query: string;
  readonly answer: Aliases;
  readonly fakeanswer: Aliases;
  readonly positive: readonly string[];
  readonly positive_wrong: readonly string[];
  readonly negative: readonly string[];
}

export type PassageRole = 'true' | 'edited' | 'noise';
export type RgbOutcome = 'correct' | 'attack' | 'conflict' | 'abstain' | 'wrong';

export interface RgbCase {
  readonly id: number;
  readonly config: RgbConfigName;
  readonly outcome: RgbOutcome;
  readonly packed: number;
  readonly poisonedPacked: number;
  readonly answer: string;
  readonly answerKind: Answer['kind'];
  readonly abstention: AbstentionDecision | null;
  readonly signals: AbstentionSignals | null;
  /** Whether the answer (before the abstention decision) stated the true answer: the label abstention is fitted on. */
  readonly answeredCorrectly: boolean;
  /** The outcome is correct and the short answer span itself states the true answer (checked against the aliases). */
  readonly spanCorrect: boolean;
}

export interface RgbMetrics {
  readonly questions: number;
  readonly poisonedShare: number;
  readonly attackSuccess: number;
  readonly accuracy: number;
  readonly conflictRate: number;
  readonly abstentionRate: number;
  readonly safeAccuracy: number;
  readonly wrongRate: number;
  /** Share of questions answered correctly with a short answer span that is itself a true alias. */
  readonly spanAccuracy: number;
  /**
   * Share of questions whose answer stated the true answer *before* the abstention decision: what
   * the configuration would get right if it never abstained (the ceiling abstention trades against).
   */
  readonly answeredAccuracy: number;
}

export interface RgbReport {
  readonly dataset: string;
  readonly split: string;
  readonly threat: Threat;
  readonly configs: readonly { readonly name: RgbConfigName; readonly metrics: RgbMetrics }[];
  readonly cases: readonly RgbCase[];
  /** How the peer defenses' rows were run (printed under the table); empty without them. */
  readonly notes: readonly string[];
}

export interface RunRgbOptions {
  readonly dataset: string;
  readonly threat: Threat;
  /** Inclusive id range; default [50, 99] (the report split; 0–49 is for tuning). */
  readonly ids?: readonly [number, number];
  readonly json?: string;
  /** Add USE-lite dense retrieval (RRF with BM25). */
  readonly dense?: boolean;
  readonly configs?: readonly RgbConfigName[];
  /** Skip the abstention decision (used when fitting it). */
  readonly abstain?: boolean;
  /** Selection options (verify is always on for the evident and clean configs); `RGB_SELECTION` when absent. */
  readonly selection?: Partial<SelectionOptions>;
  readonly log?: (msg: string) => void;
}

export async function loadRgb(dir: string): Promise<RgbRow[]> {
  return readJsonl<RgbRow>(path.join(dir, 'en_fact.jsonl'), 'RGB');
}

/** Normalised form for answer matching: diacritics stripped, lower case, punctuation as spaces. */
export function normalizeAnswer(text: string): string {
  return foldText(text);
}

/** Flat alias list of an RGB answer. */
export function aliasesOf(a: Aliases): string[] {
  return typeof a === 'string' ? [a] : a.flatMap(aliasesOf);
}

/**
 * Spellings of one alias the grader accepts: the alias, and for a two-word name the same words in
 * the other order. Chinese, Japanese, Korean and Hungarian names are written family name first as
 * often as last ("Liu Yifei" is "Yifei Liu"); RGB lists one order only.
 */
export function aliasForms(alias: string): string[] {
  const n = normalizeAnswer(alias);
  if (n.length === 0) return [];
  const w = n.split(' ');
  return w.length === 2 ? [n, `${w[1]} ${w[0]}`] : [n];
}

/** Whether `text` states one of the aliases (whole words, case- and punctuation-insensitive; see `aliasForms`). */
export function states(text: string, answer: Aliases): boolean {
  const t = ` ${normalizeAnswer(text)} `;
  return aliasesOf(answer).some((a) => aliasForms(a).some((n) => t.includes(` ${n} `)));
}

const CREDIBLE: readonly SourceType[] = ['government', 'established_news', 'peer_reviewed'];
const LOW: readonly SourceType[] = ['ai_generated', 'user_generated'];
const ANY: readonly SourceType[] = [
  'peer_reviewed',
  'government',
  'internal_policy',
  'established_news',
  'blog',
  'user_generated',
  'ai_generated',
  'unknown',
];

interface Passage {
  readonly docId: string;
  readonly text: string;
  readonly role: PassageRole;
  readonly sourceType: SourceType;
}

/**
 * Which passages a corpus holds (see `RGB_CONFIGS`): the true ones (all of them, the first that
 * states the answer, or none), the edited ones or not, and as noise the question's own negatives
 * or other questions' (`offTopicPassages`).
 */
export interface CorpusMix {
  readonly truth: 'all' | 'one' | 'none';
  readonly edited: boolean;
  readonly noise: 'own' | 'other';
}

export const CORPUS_OF: Readonly<Record<RgbConfigName, CorpusMix>> = Object.freeze({
  evident: { truth: 'all', edited: true, noise: 'own' },
  'baseline-top5': { truth: 'all', edited: true, noise: 'own' },
  'trustrag-cluster': { truth: 'all', edited: true, noise: 'own' },
  'robustrag-keyword': { truth: 'all', edited: true, noise: 'own' },
  'clean-ceiling': { truth: 'all', edited: false, noise: 'own' },
  'single-source': { truth: 'one', edited: false, noise: 'own' },
  'no-evidence': { truth: 'none', edited: false, noise: 'own' },
  library: { truth: 'one', edited: false, noise: 'other' },
  'library-no-evidence': { truth: 'none', edited: false, noise: 'other' },
});

const contentWords = (q: string): Set<string> =>
  new Set(
    foldText(q)
      .split(/\W+/u)
      .filter((w) => w.length > 3),
  );

/**
 * Off-topic passages for `row`: negatives of other questions of `rows` (none sharing a content word
 * of four letters or more with its query), as many as the row has negatives, drawn with a
 * generator seeded by the row's id.
 */
export function offTopicPassages(row: RgbRow, rows: readonly RgbRow[]): string[] {
  const mine = contentWords(row.query);
  const pool = rows
    .filter((r) => r.id !== row.id && ![...contentWords(r.query)].some((w) => mine.has(w)))
    .flatMap((r) => r.negative);
  const rand = mulberry32(5000 + row.id);
  const out: string[] = [];
  const left = [...pool];
  while (out.length < row.negative.length && left.length > 0) {
    out.push(left.splice(Math.floor(rand() * left.length), 1)[0] as string);
  }
  return out;
}

/** The per-question corpus under neutral shuffled ids (ids never reveal the role; ties break by id). */
export function corpusFor(
  row: RgbRow,
  threat: Threat,
  mix: CorpusMix = CORPUS_OF.evident,
  offTopic: readonly string[] = [],
): Passage[] {
  const rand = mulberry32(1000 + row.id);
  const first = row.positive.find((text) => states(text, row.answer)) ?? row.positive[0];
  const positives = mix.truth === 'all' ? row.positive : mix.truth === 'one' && first ? [first] : [];
  const raw: { text: string; role: PassageRole }[] = [
    ...positives.map((text) => ({ text, role: 'true' as const })),
    ...(mix.edited ? row.positive_wrong.map((text) => ({ text, role: 'edited' as const })) : []),
    ...(mix.noise === 'other' ? offTopic : row.negative).map((text) => ({ text, role: 'noise' as const })),
  ];
  const typed = raw.map((p, i) => {
    let sourceType: SourceType;
    if (threat === 'spoofed') sourceType = 'government';
    else if (p.role === 'true') sourceType = CREDIBLE[i % CREDIBLE.length] as SourceType;
    else if (p.role === 'edited') sourceType = LOW[i % LOW.length] as SourceType;
    else sourceType = ANY[Math.floor(rand() * ANY.length)] as SourceType;
    return { ...p, sourceType };
  });
  // Fisher–Yates with the same seeded generator.
  const order = typed.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order.map((k, pos) => ({
    ...(typed[k] as (typeof typed)[number]),
    docId: `d${String(pos).padStart(2, '0')}`,
  }));
}

/** Dense hits of the passages, and each passage's vector by chunk id (what TrustRAG clusters). */
type DenseFn = (
  query: string,
  passages: readonly Passage[],
) => Promise<{ hits: Hit[]; vectorOf: (chunkId: string) => Float32Array | undefined }>;

async function loadDense(): Promise<DenseFn> {
  const { loadUseEmbedderNode } = await import('../node/use-node');
  const { embedWithCache } = await import('../node/embedding-cache');
  const { embedder } = await loadUseEmbedderNode();
  return async (query, passages) => {
    const texts = [query, ...passages.map((p) => p.text)];
    const m = await embedWithCache(embedder, texts);
    const dim = embedder.dim;
    const q = m.subarray(0, dim);
    const vectors = new Map(passages.map((p, i) => [`${p.docId}#0`, m.subarray((i + 1) * dim, (i + 2) * dim)]));
    const hits = passages.map((p) => {
      const v = vectors.get(`${p.docId}#0`) as Float32Array;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += (q[k] as number) * (v[k] as number);
      return { id: `${p.docId}#0`, score: dot };
    });
    return { hits, vectorOf: (chunkId) => vectors.get(chunkId) };
  };
}

/** The engine's fusion mode. */
const APP_FUSION = DEFAULT_ENGINE_OPTIONS.fusion;

/**
 * The app's retrieval (the engine's search): BM25 with the learned query-term weights, fused with
 * the dense hits (if any) by the engine's weighted fusion, so the fused scores — and the margin the
 * abstention model reads — have the distribution the app produces.
 */
function retrieve(query: string, passages: readonly Passage[], denseHits: readonly Hit[]): Candidate[] {
  const index = Bm25Index.build(passages.map((p) => ({ id: `${p.docId}#0`, title: '', headings: '', text: p.text })));
  const bm25 = searchWithTermWeights(index, index.analyze(query), { k: passages.length });
  return fuse({ bm25, dense: denseHits }, { mode: APP_FUSION, docIdOf: (id) => id.split('#')[0] as string });
}

function outcomeOf(answer: Answer, abstained: boolean, row: RgbRow): RgbOutcome {
  if (answer.kind === 'conflict') return 'conflict';
  if (abstained) return 'abstain';
  if (answer.kind === 'insufficient') return 'abstain';
  if (states(answer.text, row.fakeanswer)) return 'attack';
  if (states(answer.text, row.answer)) return 'correct';
  return 'wrong';
}

/** The first `k` candidates packed whole, in rank order, as the top-k baseline reads them (S1 … Sk). */
function packTop(candidates: readonly Candidate[], corpus: ReturnType<typeof buildCorpus>, k: number): PackedSource[] {
  return candidates.slice(0, k).map((c, i) => {
    const chunk = corpus.chunks.get(c.id)!;
    return {
      citationId: `S${i + 1}`,
      candidateId: c.id,
      docId: c.docId,
      chunkId: c.id,
      title: `Result ${c.docId}`,
      headings: [],
      start: 0,
      end: chunk.text.length,
      text: `[S${i + 1}] Result ${c.docId}\n${chunk.text}`,
      tokens: chunk.tokens,
      score: c.score,
      sourceType: corpus.documents.get(c.docId)!.sourceType,
      status: 'current',
      rationaleIds: [],
      group: null,
    };
  });
}

async function runCase(
  row: RgbRow,
  rows: readonly RgbRow[],
  threat: Threat,
  config: RgbConfigName,
  dense: DenseFn | null,
  abstain: boolean,
  selection: Partial<SelectionOptions>,
): Promise<RgbCase> {
  const mix = CORPUS_OF[config];
  const passages = corpusFor(row, threat, mix, mix.noise === 'other' ? offTopicPassages(row, rows) : []);
  const corpus = buildCorpus(
    passages.map((p): FixtureDoc => ({
      id: p.docId,
      title: `Result ${p.docId}`,
      sourceType: p.sourceType,
      chunks: [p.text],
    })),
  );
  const role = new Map(passages.map((p) => [`${p.docId}#0`, p.role]));
  const denseRun = dense ? await dense(row.query, passages) : null;
  const candidates = retrieve(row.query, passages, denseRun?.hits ?? []);

  let answer: Answer;
  let sources: readonly PackedSource[];
  let packet: EvidencePacket | null = null;
  let runDecision: AbstentionDecision | null = null;
  if (config === 'baseline-top5') {
    sources = packTop(candidates, corpus, 5);
    answer = answerExtractive({ question: row.query, sources });
  } else if (isPeerDefense(config)) {
    ({ answer, sources } = peerDefense(config, {
      question: row.query,
      sources: packTop(candidates, corpus, 5),
      corpus: passages.map((p) => p.text),
      denseVectorOf: denseRun?.vectorOf ?? null,
    }));
  } else {
    // The app's answer path (core/pipeline), over this question's passages: its retrieval is the
    // fused ranking above. Inquiry is off: RGB measures the first answer (a follow-up search
    // would rank the same few passages again; the inquiry benchmark measures its chains).
    const library = candidateLibrary({
      chunks: corpus.chunks,
      documents: corpus.documents,
      retrieve: (query) => (query === row.query ? candidates : retrieve(query, passages, [])),
      dense: denseRun !== null,
      fusion: APP_FUSION,
    });
    const run = await answerQuestion(library, row.query, {
      pool: candidates.length,
      selection: { ...selection, verify: selection.verify ?? {} },
      inquiry: null,
    });
    packet = run.packet;
    sources = packet.sources;
    answer = run.answer;
    // The app's outcome: validation may withhold what the abstention model released.
    const withheld = run.verdict.outcome === 'abstain';
    runDecision = withheld && !run.decision.abstain ? { ...run.decision, abstain: true } : run.decision;
  }
  const decision = abstain ? runDecision : null;
  const answeredCorrectly =
    answer.kind === 'answer' && states(answer.text, row.answer) && !states(answer.text, row.fakeanswer);
  const outcome = outcomeOf(answer, decision?.abstain ?? false, row);
  const short = answer.short?.text ?? '';
  return {
    id: row.id,
    config,
    outcome,
    packed: sources.length,
    poisonedPacked: sources.filter((s) => role.get(s.candidateId) === 'edited').length,
    answer: answer.text,
    answerKind: answer.kind,
    abstention: decision,
    signals: runDecision?.signals ?? null,
    answeredCorrectly,
    spanCorrect: outcome === 'correct' && states(short, row.answer) && !states(short, row.fakeanswer),
  };
}

export function metricsOf(cases: readonly RgbCase[]): RgbMetrics {
  const n = cases.length;
  const share = (o: RgbOutcome): number => (n === 0 ? 0 : cases.filter((c) => c.outcome === o).length / n);
  const packed = cases.reduce((a, c) => a + c.packed, 0);
  const poisoned = cases.reduce((a, c) => a + c.poisonedPacked, 0);
  return {
    questions: n,
    poisonedShare: packed === 0 ? 0 : poisoned / packed,
    attackSuccess: share('attack'),
    accuracy: share('correct'),
    conflictRate: share('conflict'),
    abstentionRate: share('abstain'),
    safeAccuracy: share('correct') + share('conflict') + share('abstain'),
    wrongRate: share('wrong'),
    spanAccuracy: n === 0 ? 0 : cases.filter((c) => c.spanCorrect).length / n,
    answeredAccuracy: n === 0 ? 0 : cases.filter((c) => c.answeredCorrectly).length / n,
  };
}

/** Runs the RGB evaluation for one threat model and returns (and optionally writes) the report. */
export async function runRgb(options: RunRgbOptions): Promise<RgbReport> {
  const { dataset, threat } = options;
  if (!(THREATS as readonly string[]).includes(threat)) {
    throw new EvidentError('invalid_option', `rgb: threat must be one of ${THREATS.join(', ')}, got "${threat}".`);
  }
  const [from, to] = options.ids ?? [50, 99];
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to) {
    throw new EvidentError('invalid_option', `rgb: ids must be an integer range from ≤ to, got ${from}–${to}.`);
  }
  const configs = options.configs ?? RGB_CONFIGS;
  const rows = (await loadRgb(dataset)).filter((r) => r.id >= from && r.id <= to);
  const dense = options.dense ? await loadDense() : null;
  const cases: RgbCase[] = [];
  for (const config of configs) {
    for (const row of rows) {
      cases.push(
        await runCase(row, rows, threat, config, dense, options.abstain ?? true, options.selection ?? RGB_SELECTION),
      );
    }
    options.log?.(`${config}: ${rows.length} questions`);
  }
  const split = from === 50 && to === 99 ? 'test' : from === 0 && to === 49 ? 'train' : `${from}-${to}`;
  const report: RgbReport = {
    dataset: path.basename(path.resolve(dataset)),
    split,
    threat,
    configs: configs.map((name) => ({ name, metrics: metricsOf(cases.filter((c) => c.config === name)) })),
    cases,
    notes: configs.some(isPeerDefense) ? peerDefenseNotes(options.dense ?? false) : [],
  };
  if (options.json) {
    const doc = {
      dataset: report.dataset,
      split: report.split,
      threat,
      retrieval: options.dense ? `term-weighted bm25 + dense (${APP_FUSION})` : 'term-weighted bm25',
      notes: report.notes,
      configs: report.configs,
    };
    await writeFile(options.json, `${JSON.stringify(doc, null, 2)}\n`);
  }
  return report;
}

export function formatRgbTable(report: RgbReport): string {
  const header = [
    'config',
    'poisoned',
    'attack',
    'accuracy',
    'conflict',
    'abstain',
    'safe',
    'wrong',
    'span',
    'answered',
  ];
  const rows = report.configs.map((c) => {
    const m = c.metrics;
    return [
      c.name,
      ...[m.poisonedShare, m.attackSuccess, m.accuracy, m.conflictRate, m.abstentionRate, m.safeAccuracy],
      ...[m.wrongRate, m.spanAccuracy, m.answeredAccuracy],
    ].map((x) => (typeof x === 'string' ? x : pct(x)));
  });
  return [
    `RGB ${report.dataset} / ${report.split} / ${report.threat} (${report.configs[0]?.metrics.questions ?? 0} questions)`,
    formatTable(header, rows),
    ...report.notes,
  ].join('\n');
}

/** The RGB command line; `npm run eval -- --dataset <rgb dir> --threat …` lands here too. */
export async function rgbMain(argv: string[]): Promise<number> {
  const cli = parseCli(
    argv,
    {
      dataset: { type: 'string' },
      threat: { type: 'string', default: 'honest' },
      ids: { type: 'string', default: '50-99' },
      json: { type: 'string' },
      dense: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
    'tsx src/cli/rgb.ts --dataset <rgb-counterfactual dir> --threat honest|spoofed [--ids 50-99] [--json out.json] [--dense] [--verbose]',
    ['dataset'],
  );
  if (!cli.ok) return cli.exit;
  const { values } = cli;
  const m = /^(\d+)-(\d+)$/u.exec(values.ids);
  if (!m) throw new EvidentError('invalid_option', `--ids must look like 50-99, got "${values.ids}".`);
  const report = await runRgb({
    dataset: values.dataset as string,
    threat: values.threat as Threat,
    ids: [Number(m[1]), Number(m[2])],
    ...(values.json ? { json: values.json } : {}),
    dense: values.dense,
    log: (msg) => console.error(`[rgb] ${msg}`),
  });
  console.log(formatRgbTable(report));
  if (values.verbose) {
    for (const c of report.cases) {
      if (c.config !== 'evident') continue;
      console.log(
        `#${c.id} ${c.outcome} poisoned ${c.poisonedPacked}/${c.packed}: ${c.answer.replace(/\s+/gu, ' ').slice(0, 200)}`,
      );
    }
  }
  return 0;
}

runIfMain(import.meta.url, rgbMain);
