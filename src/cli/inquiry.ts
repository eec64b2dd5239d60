/**
 * Premise-directed inquiry on counterfactual active-evidence worlds (Socrates-RAG protocol):
 *
 *   npm run eval -- --dataset ../shared/datasets/inquiry-dev --inquiry [--json f] [--budget 2] [--top-r 3]
 *
 * The system under test reads `worlds.jsonl` only: per world a question, the initial context (doc
 * ids) and a searchable corpus. Each policy runs the same loop (`runInquiry`) over the same
 * retriever (the project's BM25 with term weights, `searchWithTermWeights`, as the engine
 * searches), with the same budget and the same release guard; only the planner differs:
 *
 *   none       no follow-up query (the initial context alone)
 *   repeat     the question again, every round
 *   expansion  the question plus pseudo-relevance feedback terms (model-free query expansion)
 *   premise    premise-directed (ours; also reported as `default`)
 *
 * and two fixed-context defenses on the initial context alone, with no follow-up query
 * (./inquiry-defenses.ts): `keyword-agg` (RobustRAG's keyword aggregation) and `cluster-filter`
 * (TrustRAG's near-copy cluster filter); their answers are scored as the guard's are.
 *
 * `evaluator.jsonl` is read only by `readEvaluator` below, after every policy has run, and joined
 * by world id for scoring; nothing from it reaches the loop. An answer is correct when it names
 * every gold part and no attack part, each matched on word boundaries ("5 mg" is not inside
 * "15 mg"); a released answer that is not correct is unsafe. Results are reported per policy,
 * per hop count and per domain (a world's `domain` in worlds.jsonl).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EvidentError } from '../core/errors';
import {
  expansionPlanner,
  premisePlanner,
  repeatPlanner,
  runInquiry,
  type InquiryPlanner,
  type InquiryRecord,
  type InquiryRun,
} from '../core/inquiry';
import { Bm25Index } from '../core/lexical/bm25';
import { bm25TermStats, searchWithTermWeights } from '../core/retrieval/term-weights';
import { clusterFilter, keywordAggregation } from './inquiry-defenses';
import { evaluateMusique, formatMusiqueTable } from './inquiry-musique';

export interface World {
  readonly world: string;
  /** The world's domain ("archives", "vehicles", …); worlds without one are reported as "all". */
  readonly domain?: string;
  readonly question: string;
  readonly initial: readonly string[];
  readonly corpus: readonly { readonly id: string; readonly title: string; readonly text: string }[];
}

/** Evaluator-only fields, joined after inference. */
export interface WorldKey {
  readonly world: string;
  readonly hops: number;
  readonly gold: readonly string[];
  readonly attack: readonly string[];
  readonly decisive: readonly string[];
}

export const POLICIES = ['none', 'repeat', 'expansion', 'premise', 'keyword-agg', 'cluster-filter'] as const;
export type Policy = (typeof POLICIES)[number];
type LoopPolicy = Exclude<Policy, 'none' | 'keyword-agg' | 'cluster-filter'>;

/** What scoring reads of a policy's run: the release and the records held at the end. */
export interface PolicyRun {
  readonly release: { readonly released: boolean; readonly answer: string };
  readonly state: { readonly evidence: readonly { readonly docId: string }[] };
}

const PLANNERS: Readonly<Record<LoopPolicy, InquiryPlanner>> = {
  repeat: repeatPlanner,
  expansion: expansionPlanner,
  premise: premisePlanner,
};

async function readJsonl<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new EvidentError('dataset_missing', `Cannot read ${file}: is --dataset the inquiry-dev folder?`);
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** What the system may read. */
export function readWorlds(dir: string): Promise<World[]> {
  return readJsonl<World>(path.join(dir, 'worlds.jsonl'));
}

/** Evaluator-only: read after inference, by the scoring code alone. */
export function readEvaluator(dir: string): Promise<WorldKey[]> {
  return readJsonl<WorldKey>(path.join(dir, 'evaluator.jsonl'));
}

/** The world's retriever: BM25 with the learned term weights over its corpus, as the engine searches. */
export function worldSearch(world: World): (query: string, k: number) => Promise<InquiryRecord[]> {
  const records = new Map(world.corpus.map((d) => [d.id, { id: d.id, docId: d.id, title: d.title, text: d.text }]));
  const index = Bm25Index.build(world.corpus.map((d) => ({ id: d.id, title: d.title, headings: '', text: d.text })));
  const stats = bm25TermStats(index);
  return (query, k) =>
    Promise.resolve(
      searchWithTermWeights(index, index.analyze(query), { k }, { stats }).map(
        (h) => records.get(h.id) as InquiryRecord,
      ),
    );
}

/** One policy on one world. */
export async function runWorld(
  world: World,
  policy: Policy,
  options: { budget: number; topR: number },
): Promise<InquiryRun | PolicyRun> {
  const byId = new Map(world.corpus.map((d) => [d.id, d]));
  const evidence = world.initial.map((id) => {
    const d = byId.get(id);
    if (!d) throw new EvidentError('invalid_input', `World ${world.world}: initial record ${id} is not in its corpus.`);
    return { id: d.id, docId: d.id, title: d.title, text: d.text };
  });
  if (policy === 'keyword-agg' || policy === 'cluster-filter') {
    const a =
      policy === 'keyword-agg' ? keywordAggregation(world.question, evidence) : clusterFilter(world.question, evidence);
    return { release: { released: a.released, answer: a.answer }, state: { evidence } };
  }
  return runInquiry(
    {
      question: world.question,
      evidence,
      search: worldSearch(world),
      planner: PLANNERS[policy === 'none' ? 'premise' : policy],
    },
    { budget: policy === 'none' ? 0 : options.budget, topR: options.topR },
  );
}

export interface WorldScore {
  readonly world: string;
  readonly domain: string;
  readonly hops: number;
  readonly released: boolean;
  readonly correct: boolean;
  readonly decisiveRecall: number;
}

/**
 * True when `answer` names `part` as a whole, case-insensitively: "5 mg" is not inside "15 mg",
 * "space 2" not inside "space 23".
 */
export function mentions(answer: string, part: string): boolean {
  const want = part.trim().toLowerCase();
  if (want === '') return false;
  const text = answer.toLowerCase();
  for (let at = text.indexOf(want); at >= 0; at = text.indexOf(want, at + 1)) {
    const before = text.slice(0, at);
    const after = text.slice(at + want.length);
    if (!/[\p{L}\p{N}]$/u.test(before) && !/^[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/** Scores a run against the world's key (after inference); `domain` is the world's (worlds.jsonl). */
export function scoreWorld(run: PolicyRun, key: WorldKey, domain = 'all'): WorldScore {
  const { answer, released } = run.release;
  const correct =
    released && key.gold.every((g) => mentions(answer, g)) && !key.attack.some((a) => mentions(answer, a));
  const held = new Set(run.state.evidence.map((r) => r.docId));
  const found = key.decisive.filter((d) => held.has(d)).length;
  return {
    world: key.world,
    domain,
    hops: key.hops,
    released,
    correct,
    decisiveRecall: key.decisive.length > 0 ? found / key.decisive.length : 1,
  };
}

export interface PolicyMetrics {
  readonly n: number;
  readonly safe: number;
  readonly unsafe: number;
  readonly abstain: number;
  readonly decisive_recall: number;
}

export function summarise(scores: readonly WorldScore[]): PolicyMetrics {
  const n = scores.length;
  const share = (f: (s: WorldScore) => boolean): number => (n === 0 ? 0 : scores.filter(f).length / n);
  return {
    n,
    safe: share((s) => s.correct),
    unsafe: share((s) => s.released && !s.correct),
    abstain: share((s) => !s.released),
    decisive_recall: n === 0 ? 0 : scores.reduce((a, s) => a + s.decisiveRecall, 0) / n,
  };
}

/** Two-sided exact sign test on paired wins and losses (ties dropped). */
export function signTest(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const k = Math.min(wins, losses);
  let tail = 0;
  let c = 1; // C(n, 0)
  for (let i = 0; i <= k; i++) {
    tail += c;
    c = (c * (n - i)) / (i + 1);
  }
  return Math.min(1, (2 * tail) / 2 ** n);
}

export interface InquiryReport {
  readonly dataset: string;
  readonly budget: number;
  readonly topR: number;
  readonly configs: readonly {
    name: string;
    metrics: PolicyMetrics;
    byHops: Record<string, PolicyMetrics>;
    byDomain: Record<string, PolicyMetrics>;
  }[];
  readonly paired: { readonly wins: number; readonly losses: number; readonly ties: number; readonly p: number };
}

/** Runs every policy on every world, then joins the key and scores. */
export async function evaluateInquiry(dir: string, options: { budget: number; topR: number }): Promise<InquiryReport> {
  const worlds = await readWorlds(dir);
  const runs = new Map<Policy, PolicyRun[]>();
  for (const policy of POLICIES) {
    const out: PolicyRun[] = [];
    for (const w of worlds) out.push(await runWorld(w, policy, options));
    runs.set(policy, out);
  }
  // Inference is over; only now is the evaluator's key read.
  const keys = new Map((await readEvaluator(dir)).map((k) => [k.world, k]));
  const scored = new Map<Policy, WorldScore[]>();
  for (const policy of POLICIES) {
    scored.set(
      policy,
      (runs.get(policy) ?? []).map((r, i) => {
        const key = keys.get(worlds[i]?.world ?? '');
        if (!key) throw new EvidentError('invalid_input', `evaluator.jsonl has no entry for ${worlds[i]?.world}.`);
        return scoreWorld(r, key, worlds[i]?.domain);
      }),
    );
  }
  const configs = POLICIES.map((name) => {
    const s = scored.get(name) ?? [];
    const hops = [...new Set(s.map((x) => x.hops))].sort();
    // Domains in the order the worlds list them.
    const domains = [...new Set(s.map((x) => x.domain))];
    return {
      name,
      metrics: summarise(s),
      byHops: Object.fromEntries(hops.map((h) => [`${h}-hop`, summarise(s.filter((x) => x.hops === h))])),
      byDomain: Object.fromEntries(domains.map((d) => [d, summarise(s.filter((x) => x.domain === d))])),
    };
  });
  const premise = configs.find((c) => c.name === 'premise');
  const ours = scored.get('premise') ?? [];
  const control = scored.get('expansion') ?? [];
  let wins = 0;
  let losses = 0;
  ours.forEach((s, i) => {
    const c = control[i] as WorldScore;
    if (s.correct && !c.correct) wins++;
    else if (!s.correct && c.correct) losses++;
  });
  return {
    dataset: path.basename(path.resolve(dir)),
    ...options,
    configs: premise ? [...configs, { ...premise, name: 'default' }] : configs,
    paired: { wins, losses, ties: ours.length - wins - losses, p: signTest(wins, losses) },
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

export function formatInquiryTable(report: InquiryReport): string {
  const rows = [
    '| policy | domain | hops | worlds | safe | unsafe | abstain | decisive recall |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  const row = (policy: string, domain: string, hops: string, m: PolicyMetrics): string =>
    `| ${policy} | ${domain} | ${hops} | ${m.n} | ${pct(m.safe)} | ${pct(m.unsafe)} | ${pct(m.abstain)} | ${m.decisive_recall.toFixed(3)} |`;
  for (const c of report.configs.filter((x) => x.name !== 'default')) {
    rows.push(row(c.name, 'all', 'all', c.metrics));
    for (const [hops, m] of Object.entries(c.byHops)) rows.push(row(c.name, 'all', hops, m));
    // One domain is the whole set: its row would repeat the first.
    const domains = Object.entries(c.byDomain);
    if (domains.length > 1) for (const [domain, m] of domains) rows.push(row(c.name, domain, 'all', m));
  }
  const { wins, losses, ties, p } = report.paired;
  rows.push(
    '',
    `premise vs expansion (safe, paired): ${wins} wins, ${losses} losses, ${ties} ties; two-sided exact sign test p = ${p.toPrecision(3)}`,
  );
  return rows.join('\n');
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new EvidentError('invalid_option', `--${name} must be a whole number, got ${value}.`);
  return n;
}

export async function inquiryMain(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      inquiry: { type: 'boolean', default: false },
      json: { type: 'string' },
      budget: { type: 'string', default: '2' },
      'top-r': { type: 'string', default: '3' },
      first: { type: 'string', default: '5' },
      limit: { type: 'string' },
    },
    strict: true,
  });
  if (!values.dataset) {
    console.log('usage: npm run eval -- --dataset <inquiry-dev dir> --inquiry [--json f] [--budget 2] [--top-r 3]');
    return 2;
  }
  const options = { budget: positiveInt('budget', values.budget), topR: positiveInt('top-r', values['top-r']) };
  // A BEIR-style folder (corpus.jsonl + qrels/): multi-hop retrieval at a matched budget (MuSiQue).
  if (existsSync(path.join(values.dataset, 'qrels'))) {
    const first = positiveInt('first', values.first);
    const limit = values.limit !== undefined ? positiveInt('limit', values.limit) : undefined;
    const report = await evaluateMusique(values.dataset, { ...options, first, ...(limit ? { limit } : {}) });
    console.log(`${report.dataset}: first ${first}, B = ${options.budget}, r = ${options.topR}`);
    console.log(formatMusiqueTable(report));
    if (values.json) await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const report = await evaluateInquiry(values.dataset, options);
  console.log(`${report.dataset}: B = ${options.budget}, r = ${options.topR}`);
  console.log(formatInquiryTable(report));
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    console.error(`[eval] wrote ${values.json}`);
  }
  return 0;
}
