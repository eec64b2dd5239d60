/**
 * Validation (RAG guide): parse the answer's citations, reject unknown ids, split it into claims
 * (sentences) and check each claim against the passages it cites.
 *
 * A claim is supported when
 *   - with an entailment model: some cited passage (or sentence of one) entails it with
 *     probability ≥ `entailment`;
 *   - without one: the share of the claim's content terms (Porter stems, stopwords removed) found in
 *     its cited passages is ≥ `lexicalThreshold`, and every number, date and name it states appears
 *     in them (a figure or a name the sources do not contain is never supported: term overlap alone
 *     cannot tell "Tampa hosted the Super Bowl" from "Glendale hosted the Super Bowl").
 * `lexicalThreshold` is calibrated on SciFact train (`src/cli/fit-support.ts`): claims against
 * their rationale sentences versus random sentences of other abstracts, best F1 at 0.15
 * (P 0.87, R 0.81). Against the abstract's other sentences (hard negatives) the best cut is 0.30
 * and 0.15 has precision 0.28: the share is a weak signal, which is why the grounding of figures
 * and names is checked on top of it.
 *
 * Outcome: 'supported' (every claim supported), 'partial' (some are: the others are marked),
 * 'unsupported' (none, or an unknown citation) → abstain, with a reason and a suggestion.
 * Sentences without content of their own ("They are comparable sources, so neither is asserted
 * here.") are not claims.
 */
import { assertKnownOptions } from '../errors';
import type { AbortSignalLike } from '../util/stage';
import { checkRange } from '../util/stage';
import type { PackedSource } from '../select/pack';
import { termsOf } from '../select/rationales';
import { splitSentences } from '../text/sentences';
import type { EntailmentModel } from '../verify/nli';
import { compatibleKeys, extractValues, foldText } from '../verify/values';
import { sourceEvidence } from './extractive';
import { derivedFigures } from './formula';

/**
 * Share of claim terms that must appear in the cited passages. Fitted on SciFact train by
 * `npx tsx src/cli/fit-support.ts --dataset ../shared/datasets/scifact` (see that file).
 */
export const FITTED_LEXICAL_THRESHOLD = 0.15;

export interface ValidateOptions {
  readonly lexicalThreshold: number;
  /** Entailment probability at or above which a cited passage supports a claim (majority of a 3-way softmax). */
  readonly entailment: number;
}

export const DEFAULT_VALIDATE_OPTIONS: ValidateOptions = Object.freeze({
  lexicalThreshold: FITTED_LEXICAL_THRESHOLD,
  entailment: 0.5,
});

export interface Citation {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

export interface ClaimCheck {
  readonly text: string;
  readonly citations: readonly string[];
  /** Cited ids that are not packed sources. */
  readonly unknown: readonly string[];
  readonly supported: boolean;
  /** Lexical share or entailment probability of the best cited passage. */
  readonly score: number;
  readonly method: 'nli' | 'lexical' | 'uncited';
  /** Why it is not supported, when it is not. */
  readonly problem: string | null;
}

export const VALIDATION_OUTCOMES = ['supported', 'partial', 'unsupported'] as const;
export type ValidationOutcome = (typeof VALIDATION_OUTCOMES)[number];

export interface Validation {
  readonly outcome: ValidationOutcome;
  readonly claims: readonly ClaimCheck[];
  readonly unknownCitations: readonly string[];
  /** The answer with unsupported claims marked "⚠ unsupported". */
  readonly marked: string;
  readonly reason: string | null;
  readonly suggestion: string | null;
}

export interface ValidateInput {
  readonly answer: string;
  readonly sources: readonly PackedSource[];
  readonly entailment?: EntailmentModel;
  readonly signal?: AbortSignalLike;
}

// [S1], [S1, S3], [S1][S2], [S1–S3]
const CITATION_GROUP = /\[(S\d+(?:\s*(?:[,;]|–|-)\s*S\d+)*)\]/gu;
/** Citation groups opening a sentence, with the space after them. */
const LEADING_CITATIONS = /^(?:\s*\[S\d+(?:\s*(?:[,;]|–|-)\s*S\d+)*\])+\s*/u;

/** Every citation id in the text, with the offsets of its bracket group; ranges (S1–S3) expand. */
export function parseCitations(text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(CITATION_GROUP)) {
    const start = m.index;
    const end = start + m[0].length;
    const body = m[1] ?? '';
    const range = /^S(\d+)\s*[–-]\s*S(\d+)$/u.exec(body);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      for (let k = Math.min(a, b); k <= Math.max(a, b) && k - a < 50; k++) out.push({ id: `S${k}`, start, end });
      continue;
    }
    for (const id of body.split(/\s*[,;]\s*/u)) if (id) out.push({ id: id.trim(), start, end });
  }
  return out;
}

const META_TERMS = new Set(
  termsOf(
    'source sources disagree disagreement comparable neither asserted assert here according evidence documents document ' +
      'passage passages selected answer question cited say says state states conflict unclear',
  ),
);

/** Content terms of a claim, citations and quotes' punctuation removed. */
function claimTerms(text: string): string[] {
  return termsOf(text.replace(CITATION_GROUP, ' '));
}

/** Share of the claim's content terms found in the evidence (1 for a claim with none). */
export function lexicalSupport(claim: string, evidence: string): number {
  const terms = claimTerms(claim);
  if (terms.length === 0) return 1;
  const have = new Set(termsOf(evidence));
  return terms.filter((t) => have.has(t)).length / terms.length;
}

/** Numbers, dates and names of the claim that the evidence does not contain. */
export function unmatchedFigures(claim: string, evidence: string): string[] {
  const ev = extractValues(evidence).filter((v) => v.kind !== 'entity');
  const evWords = new Set(foldText(evidence).split(' '));
  return extractValues(claim.replace(CITATION_GROUP, ' '))
    .filter((v) =>
      v.kind === 'entity'
        ? !v.key.split(' ').every((w) => evWords.has(w))
        : !ev.some((e) => e.kind === v.kind && compatibleKeys(v.kind, e.key, v.key)),
    )
    .map((v) => v.raw);
}

/** The same magnitude: "−22.22%" and 22.22, "4,227.5" and 4227.5. */
function sameFigure(raw: string, value: number): boolean {
  const n = Number(raw.replace(/[^\d.]/g, ''));
  return Number.isFinite(n) && Math.abs(n - Math.abs(value)) < 1e-9;
}

/** Checks an answer against the packed sources it cites. */
export async function validateAnswer(
  input: ValidateInput,
  options: Partial<ValidateOptions> = {},
): Promise<Validation> {
  assertKnownOptions(options, DEFAULT_VALIDATE_OPTIONS, 'validate');
  const o: ValidateOptions = { ...DEFAULT_VALIDATE_OPTIONS, ...options };
  checkRange('validate', 'lexicalThreshold', o.lexicalThreshold, 0, 1);
  checkRange('validate', 'entailment', o.entailment, 0, 1);
  const byId = new Map(input.sources.map((s) => [s.citationId, s]));
  const text = input.answer;
  const all = parseCitations(text);
  const unknownCitations = [...new Set(all.map((c) => c.id).filter((id) => !byId.has(id)))];

  // Claims: sentences; a citation group that follows a sentence's end belongs to that sentence,
  // whether the splitter left it alone ("… week. [S1]") or at the start of the next ("[S1] Each …").
  const spans = splitSentences(text);
  const sentences = spans.map((s) => text.slice(s.start, s.end));
  const claims: { text: string; citations: string[] }[] = [];
  for (let s of sentences) {
    const lead = LEADING_CITATIONS.exec(s)?.[0] ?? '';
    if (lead !== '' && claims.length > 0 && s.length > lead.length) {
      const last = claims[claims.length - 1]!;
      last.citations.push(...parseCitations(lead).map((c) => c.id));
      last.text = `${last.text} ${lead.trim()}`;
      s = s.slice(lead.length);
    }
    const ids = parseCitations(s).map((c) => c.id);
    const bare = s.replace(CITATION_GROUP, '').trim();
    if (bare.length === 0 && claims.length > 0) {
      const last = claims[claims.length - 1]!;
      last.citations.push(...ids);
      last.text = `${last.text} ${s}`;
      continue;
    }
    claims.push({ text: s, citations: ids });
  }

  const checks: ClaimCheck[] = [];
  const pending: { k: number; premises: string[] }[] = [];
  for (const c of claims) {
    const citations = [...new Set(c.citations)];
    const unknown = citations.filter((id) => !byId.has(id));
    const terms = claimTerms(c.text).filter((t) => !META_TERMS.has(t));
    if (terms.length === 0) continue; // no content of its own: not a claim
    const known = citations.filter((id) => byId.has(id)).map((id) => byId.get(id) as PackedSource);
    if (known.length === 0) {
      checks.push({
        text: c.text,
        citations,
        unknown,
        supported: false,
        score: 0,
        method: 'uncited',
        problem: unknown.length > 0 ? `cites unknown source ${unknown.join(', ')}` : 'no citation',
      });
      continue;
    }
    const evidence = known.map(sourceEvidence).join('\n');
    // A result no passage prints is grounded when the claim writes out its computation from
    // figures that are (formula.ts `derivedFigures`): the arithmetic is recomputed here.
    const derived = derivedFigures(c.text);
    const figures = unmatchedFigures(c.text, evidence).filter((f) => !derived.some((d) => sameFigure(f, d)));
    const score = lexicalSupport(c.text, evidence);
    if (input.entailment) {
      pending.push({ k: checks.length, premises: known.map(sourceEvidence) });
      checks.push({ text: c.text, citations, unknown, supported: false, score: 0, method: 'nli', problem: null });
      continue;
    }
    const supported = score >= o.lexicalThreshold && figures.length === 0 && unknown.length === 0;
    checks.push({
      text: c.text,
      citations,
      unknown,
      supported,
      score,
      method: 'lexical',
      problem: supported
        ? null
        : figures.length > 0
          ? `states ${figures.join(', ')}, which the cited passages do not`
          : unknown.length > 0
            ? `cites unknown source ${unknown.join(', ')}`
            : `only ${(100 * score).toFixed(0)}% of its terms are in the cited passages`,
    });
  }
  if (input.entailment && pending.length > 0) {
    const pairs = pending.flatMap((p) =>
      p.premises.map((premise) => ({
        premise,
        hypothesis: (checks[p.k] as ClaimCheck).text.replace(CITATION_GROUP, '').trim(),
      })),
    );
    const scores = await input.entailment.classify(pairs, input.signal);
    let at = 0;
    for (const p of pending) {
      const mine = scores.slice(at, at + p.premises.length);
      at += p.premises.length;
      const best = Math.max(0, ...mine.map((s) => s.entailment));
      const c = checks[p.k] as ClaimCheck;
      const supported = best >= o.entailment && c.unknown.length === 0;
      checks[p.k] = {
        ...c,
        supported,
        score: best,
        problem: supported ? null : `no cited passage entails it (best p=${best.toFixed(2)})`,
      };
    }
  }

  const ok = checks.filter((c) => c.supported).length;
  const outcome: ValidationOutcome =
    unknownCitations.length > 0 || ok === 0 ? 'unsupported' : ok === checks.length ? 'supported' : 'partial';
  let marked = text;
  for (const c of checks) if (!c.supported) marked = marked.replace(c.text, `${c.text} ⚠ unsupported`);
  const reason =
    outcome === 'supported'
      ? null
      : unknownCitations.length > 0
        ? `The answer cites sources that were not given: ${unknownCitations.join(', ')}.`
        : outcome === 'unsupported'
          ? checks.length === 0
            ? 'The answer makes no claim that could be checked.'
            : 'No claim of the answer is supported by the passages it cites.'
          : `${checks.length - ok} of ${checks.length} claims are not supported by the passages they cite.`;
  const suggestion =
    outcome === 'supported'
      ? null
      : 'Ask a narrower question, or add the document that states this; the unsupported parts are marked.';
  return { outcome, claims: checks, unknownCitations, marked, reason, suggestion };
}
