/**
 * Two fixed-context defenses for the inquiry benchmark (src/cli/inquiry.ts), re-implemented from
 * their papers' descriptions without a model, on the initial context alone (no follow-up query):
 *
 * - `keywordAggregation` — RobustRAG's keyword aggregation (Xiang et al. 2024, "Certifiably
 *   Robust RAG against Retrieval Corruption", §3.2): answer from each passage in isolation, keep
 *   the keywords that at least min(α·k, β) of the k isolated answers share, answer from those.
 *   The isolated answer of a passage is its sentence sharing most content terms with the question
 *   (the Embedded profile's extractive reading); its keywords are its words outside the question.
 *   α = 0.3, β = 3 (the paper's defaults for keyword aggregation).
 * - `clusterFilter` — TrustRAG's first stage (Zhou et al. 2025, "TrustRAG: Enhancing Robustness
 *   and Trustworthiness in RAG"): cluster the passages, drop the tight cluster of near-copies (a
 *   coordinated group of two or more), answer from what is left. The clusters are the verify
 *   stage's lineage groups (`sourcesOf`, shared with the release guard), not a copy of them.
 *
 * Both see only what the first retrieval gave, which is the point of the comparison: a decisive
 * record that is not in the initial context cannot be reached by filtering it.
 */
import { sourcesOf, type InquiryRecord } from '../core/inquiry';
import { sentencesOf } from '../core/inquiry/mentions';
import { termsOf } from '../core/select/rationales';
import { analyzerTokens } from '../core/text/analyze';

export interface FixedContextAnswer {
  readonly released: boolean;
  readonly answer: string;
  /** The records the answer was read from. */
  readonly used: readonly InquiryRecord[];
  /** Ids of the records the defense set aside before answering (the cluster filter's near-copies). */
  readonly dropped: readonly string[];
}

/** The sentence of `text` sharing most content terms with the question; '' when none shares one. */
function isolatedAnswer(question: string, text: string): string {
  const q = new Set(termsOf(question));
  let best = '';
  let bestHits = 0;
  for (const s of sentencesOf(text)) {
    const hits = termsOf(s).filter((t) => q.has(t)).length;
    if (hits > bestHits) [best, bestHits] = [s, hits];
  }
  return best;
}

/** Words of `answer` outside the question, in order, once each (lower case). */
function keywordsOf(question: string, answer: string): string[] {
  const q = new Set(termsOf(question));
  const out: string[] = [];
  for (const t of analyzerTokens(answer)) {
    const word = t.toLowerCase();
    const [term] = termsOf(word);
    if (term === undefined || q.has(term) || out.includes(word)) continue;
    out.push(word);
  }
  return out;
}

/** RobustRAG's keyword thresholds (Xiang et al. 2024, §3.2 defaults): α relative, β absolute. */
export interface KeywordThresholds {
  readonly alpha: number;
  readonly beta: number;
}
export const ROBUSTRAG_THRESHOLDS: KeywordThresholds = Object.freeze({ alpha: 0.3, beta: 3 });

/**
 * RobustRAG's aggregation rule: of the keywords of n isolated answers (one list per answer that
 * did not abstain), those at least min(α·n, β) of the answers share (and at least one), in the
 * order they were first seen. A keyword counts once per answer.
 */
export function sharedKeywords(
  answers: readonly (readonly string[])[],
  { alpha, beta }: KeywordThresholds = ROBUSTRAG_THRESHOLDS,
): string[] {
  const need = Math.max(1, Math.min(alpha * answers.length, beta));
  const count = new Map<string, number>();
  for (const words of answers) for (const w of new Set(words)) count.set(w, (count.get(w) ?? 0) + 1);
  return [...new Set(answers.flat())].filter((w) => (count.get(w) ?? 0) >= need);
}

export function keywordAggregation(
  question: string,
  records: readonly InquiryRecord[],
  { alpha = 0.3, beta = 3 }: { alpha?: number; beta?: number } = {},
): FixedContextAnswer {
  const answers = records.map((r) => ({ r, words: keywordsOf(question, isolatedAnswer(question, r.text)) }));
  const withAnswer = answers.filter((a) => a.words.length > 0);
  const kept = sharedKeywords(
    withAnswer.map((a) => a.words),
    { alpha, beta },
  );
  return {
    released: kept.length > 0,
    answer: kept.join(' '),
    used: withAnswer.filter((a) => a.words.some((w) => kept.includes(w))).map((a) => a.r),
    dropped: [],
  };
}

export function clusterFilter(
  question: string,
  records: readonly InquiryRecord[],
  vectorOf?: (id: string) => Float32Array | undefined,
): FixedContextAnswer {
  const source = sourcesOf(records, vectorOf, question);
  const size = new Map<string, number>();
  for (const r of records) {
    const s = source.get(r.id) ?? r.id;
    size.set(s, (size.get(s) ?? 0) + 1);
  }
  const kept = records.filter((r) => (size.get(source.get(r.id) ?? r.id) ?? 0) < 2);
  let best = '';
  let from: InquiryRecord | null = null;
  let bestHits = 0;
  const q = new Set(termsOf(question));
  for (const r of kept) {
    const s = isolatedAnswer(question, r.text);
    const hits = termsOf(s).filter((t) => q.has(t)).length;
    if (hits > bestHits) [best, from, bestHits] = [s, r, hits];
  }
  const dropped = records.filter((r) => !kept.includes(r)).map((r) => r.id);
  return { released: best !== '', answer: best, used: from ? [from] : [], dropped };
}
