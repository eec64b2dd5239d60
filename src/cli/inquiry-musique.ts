/**
 * Multi-hop retrieval with the inquiry loop (issue 15, MuSiQue):
 *
 *   npm run eval -- --dataset ../shared/datasets/musique-dev --inquiry [--json f] [--budget 2] [--top-r 3] [--first 5]
 *
 * One BM25 index (term weights, as the engine searches) over the whole corpus. Per question: the
 * first retrieval takes the top `first` paragraphs; each loop policy (premise-directed, repeated
 * question, query expansion — the same planners as on inquiry-dev) then runs `runInquiry` with
 * budget B and top r: every round brings r paragraphs not yet held (`readPastHeld`, for every
 * policy), and a loop that stops early
 * hands the budget it did not spend to the first retrieval's next paragraphs, so each policy holds
 * first + B × r paragraphs. Single-shot BM25 is scored at that same matched budget (its top
 * first + B × r). Metrics per hop count: all-gold recall (every
 * gold paragraph of the question held) and gold recall (the share held). Gold comes from the qrels
 * and is read only for scoring.
 */
import { expansionPlanner, premisePlanner, repeatPlanner, runInquiry, type InquiryPlanner } from '../core/inquiry';
import type { InquiryRecord } from '../core/inquiry';
import { Bm25Index } from '../core/lexical/bm25';
import { bm25TermStats, searchWithTermWeights } from '../core/retrieval/term-weights';
import { loadBeir } from '../node/beir';
import { pct } from './common';

export const MUSIQUE_POLICIES = ['single-shot', 'repeat', 'expansion', 'premise'] as const;
export type MusiquePolicy = (typeof MUSIQUE_POLICIES)[number];

export interface MusiqueOptions {
  readonly first: number;
  readonly budget: number;
  readonly topR: number;
  /** At most this many questions (in file order); all by default. */
  readonly limit?: number;
}

export interface MusiqueRow {
  readonly policy: MusiquePolicy;
  readonly hops: '2' | '3-4' | 'all';
  readonly questions: number;
  /** Mean paragraphs held per question. */
  readonly passages: number;
  readonly allGold: number;
  readonly goldRecall: number;
}

export interface MusiqueReport {
  readonly dataset: string;
  readonly options: MusiqueOptions;
  readonly rows: readonly MusiqueRow[];
}

const PLANNERS: Readonly<Record<Exclude<MusiquePolicy, 'single-shot'>, InquiryPlanner>> = {
  repeat: repeatPlanner,
  expansion: expansionPlanner,
  premise: premisePlanner,
};

interface Scored {
  readonly hops: number;
  readonly held: number;
  readonly all: boolean;
  readonly share: number;
}

export async function evaluateMusique(dir: string, options: MusiqueOptions): Promise<MusiqueReport> {
  const data = await loadBeir(dir);
  const records = new Map<string, InquiryRecord>(
    data.corpus.map((d) => [d.id, { id: d.id, docId: d.id, title: d.title, text: d.text }]),
  );
  const index = Bm25Index.build(data.corpus.map((d) => ({ id: d.id, title: d.title, headings: '', text: d.text })));
  const stats = bm25TermStats(index);
  const search = (query: string, k: number): Promise<InquiryRecord[]> =>
    Promise.resolve(
      searchWithTermWeights(index, index.analyze(query), { k }, { stats }).map(
        (h) => records.get(h.id) as InquiryRecord,
      ),
    );
  const matched = options.first + options.budget * options.topR;
  // A loop that stopped early (released, or nothing left to ask) leaves budget unspent: it goes to
  // the first retrieval's next passages, so every policy is scored at the same number of passages.
  const withFill = async (held: readonly InquiryRecord[], question: string, n: number): Promise<InquiryRecord[]> => {
    const out = [...held];
    if (out.length >= n) return out;
    const have = new Set(out.map((r) => r.docId));
    for (const r of await search(question, n + held.length)) {
      if (out.length >= n) break;
      if (!have.has(r.docId)) {
        have.add(r.docId);
        out.push(r);
      }
    }
    return out;
  };
  const queries = data.queries.slice(0, options.limit ?? data.queries.length);
  const scored = new Map<MusiquePolicy, Scored[]>(MUSIQUE_POLICIES.map((p) => [p, []]));
  for (const q of queries) {
    const gold = new Set((data.qrels.get(q.id) ?? new Map()).keys());
    const hops = typeof q.meta.hops === 'number' ? q.meta.hops : 0;
    const score = (held: readonly InquiryRecord[]): Scored => {
      const ids = new Set(held.map((r) => r.docId));
      const found = [...gold].filter((g) => ids.has(g)).length;
      return {
        hops,
        held: ids.size,
        all: gold.size > 0 && found === gold.size,
        share: gold.size ? found / gold.size : 0,
      };
    };
    scored.get('single-shot')!.push(score(await search(q.text, matched)));
    const firstHits = await search(q.text, options.first);
    for (const [policy, planner] of Object.entries(PLANNERS) as [MusiquePolicy, InquiryPlanner][]) {
      const run = await runInquiry(
        { question: q.text, evidence: firstHits, search, planner },
        { budget: options.budget, topR: options.topR, readPastHeld: true },
      );
      scored.get(policy)!.push(score(await withFill(run.state.evidence, q.text, matched)));
    }
  }
  const rows: MusiqueRow[] = [];
  for (const policy of MUSIQUE_POLICIES) {
    const all = scored.get(policy)!;
    for (const [hops, keep] of [
      ['2', (s: Scored) => s.hops === 2],
      ['3-4', (s: Scored) => s.hops >= 3],
      ['all', () => true],
    ] as const) {
      const part = all.filter(keep);
      const mean = (f: (s: Scored) => number): number =>
        part.length === 0 ? 0 : part.reduce((a, s) => a + f(s), 0) / part.length;
      rows.push({
        policy,
        hops,
        questions: part.length,
        passages: mean((s) => s.held),
        allGold: mean((s) => (s.all ? 1 : 0)),
        goldRecall: mean((s) => s.share),
      });
    }
  }
  return { dataset: data.name, options, rows };
}

export function formatMusiqueTable(report: MusiqueReport): string {
  const lines = [
    '| policy | hops | questions | passages held | all-gold recall | gold recall |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const r of report.rows) {
    lines.push(
      `| ${r.policy} | ${r.hops} | ${r.questions} | ${r.passages.toFixed(1)} | ${pct(r.allGold)} | ${pct(r.goldRecall)} |`,
    );
  }
  return lines.join('\n');
}
