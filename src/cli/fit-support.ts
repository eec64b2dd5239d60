/**
 * Calibrates the lexical support threshold of answer validation (src/core/answer/validate.ts) on
 * SciFact TRAIN only: each training claim labelled SUPPORT against its rationale sentences
 * (positives) and against three random sentences of other abstracts per positive (negatives, a
 * seeded draw). Score: `lexicalSupport(claim, sentence)`, the share of the claim's content terms
 * found in the sentence. The threshold is the value in {0.05, 0.10, …, 0.95} with the best F1; the
 * same numbers against hard negatives (the abstract's other sentences) are printed beside it.
 *
 *   npx tsx src/cli/fit-support.ts --dataset ../shared/datasets/scifact [--write]
 *
 * `--write` rewrites `FITTED_LEXICAL_THRESHOLD` in validate.ts.
 */
import path from 'node:path';
import { lexicalSupport } from '../core/answer/validate';
import { mulberry32 } from '../core/util/prng';
import { bestOnGrid, parseCli, readJsonl, rewriteInFile, runIfMain } from './common';

interface EvidenceRow {
  readonly 'query-id': string;
  readonly 'corpus-id': string;
  readonly label: 'SUPPORT' | 'CONTRADICT';
  readonly sentences: readonly number[];
}

export interface Scored {
  readonly score: number;
  readonly positive: boolean;
}

/** Precision, recall and F1 of "score ≥ t". */
export function f1At(items: readonly Scored[], t: number): { p: number; r: number; f1: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const x of items) {
    if (x.score >= t) {
      if (x.positive) tp++;
      else fp++;
    } else if (x.positive) fn++;
  }
  const p = tp + fp === 0 ? 0 : tp / (tp + fp);
  const r = tp + fn === 0 ? 0 : tp / (tp + fn);
  return { p, r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r) };
}

/** The grid threshold with the best F1. */
export function bestThreshold(items: readonly Scored[]): number {
  return bestOnGrid((t) => f1At(items, t).f1);
}

async function main(argv: string[]): Promise<number> {
  const cli = parseCli(
    argv,
    {
      dataset: { type: 'string' },
      write: { type: 'boolean', default: false },
      file: { type: 'string', default: 'src/core/answer/validate.ts' },
    },
    'tsx src/cli/fit-support.ts --dataset <scifact dir> [--write]',
    ['dataset'],
  );
  if (!cli.ok) return cli.exit;
  const { values } = cli;
  const dir = values.dataset as string;
  const queries = new Map(
    (await readJsonl<{ _id: string; text: string }>(path.join(dir, 'queries-train.jsonl'), 'SciFact')).map((q) => [
      q._id,
      q.text,
    ]),
  );
  const evidence = (await readJsonl<EvidenceRow>(path.join(dir, 'evidence-train.jsonl'), 'SciFact')).filter(
    (e) => e.label === 'SUPPORT',
  );
  const corpus = await readJsonl<{ _id: string; sentences?: string[] }>(path.join(dir, 'corpus.jsonl'), 'SciFact');
  const sentencesOf = new Map(corpus.map((d) => [d._id, d.sentences ?? []]));
  const pool = corpus.flatMap((d) => (d.sentences ?? []).map((s) => ({ doc: d._id, s })));
  const rand = mulberry32(42);
  const random: Scored[] = [];
  const hard: Scored[] = [];
  for (const e of evidence) {
    const claim = queries.get(e['query-id']);
    const sents = sentencesOf.get(e['corpus-id']);
    if (!claim || !sents) continue;
    const rationale = new Set(e.sentences);
    for (const i of rationale) {
      const s = sents[i];
      if (s === undefined) continue;
      const pos = { score: lexicalSupport(claim, s), positive: true };
      random.push(pos);
      hard.push(pos);
      for (let k = 0; k < 3; k++) {
        let pick = pool[Math.floor(rand() * pool.length)]!;
        while (pick.doc === e['corpus-id']) pick = pool[Math.floor(rand() * pool.length)]!;
        random.push({ score: lexicalSupport(claim, pick.s), positive: false });
      }
    }
    sents.forEach((s, i) => {
      if (!rationale.has(i)) hard.push({ score: lexicalSupport(claim, s), positive: false });
    });
  }
  const t = bestThreshold(random);
  const r = f1At(random, t);
  const h = f1At(hard, t);
  const th = bestThreshold(hard);
  console.log(
    `SciFact train: ${random.filter((x) => x.positive).length} claim–rationale pairs, ${random.filter((x) => !x.positive).length} random and ${hard.filter((x) => !x.positive).length} hard negatives`,
  );
  console.log(`random negatives: best threshold ${t}: P ${r.p.toFixed(3)} R ${r.r.toFixed(3)} F1 ${r.f1.toFixed(3)}`);
  console.log(
    `hard negatives at ${t}: P ${h.p.toFixed(3)} R ${h.r.toFixed(3)} F1 ${h.f1.toFixed(3)} (best for hard: ${th})`,
  );
  if (values.write) {
    await rewriteInFile(
      values.file,
      /export const FITTED_LEXICAL_THRESHOLD = [\d.]+;/u,
      `export const FITTED_LEXICAL_THRESHOLD = ${t};`,
    );
    console.log(`wrote ${values.file}`);
  }
  return 0;
}

runIfMain(import.meta.url, main);
