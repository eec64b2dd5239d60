/**
 * Stage 9 — packing under a token budget (RAG guide), with stable citation ids.
 *
 *   budget = contextLimit − systemPrompt − question − answerReserve − margin
 *
 * Items are whole chunks, or with `trim: 'sentences'` the sentences of a chunk that share the most
 * terms with the question (`trimChunk`): either way a sentence, table row, clause, unit or date is
 * never cut, and a chunk that does not fit is skipped and the next one tried. Each packed source
 * starts with a header line — citation id, document title, heading trail (without a first heading
 * that repeats the title), page, a table chunk's context (title and column header) — so headings
 * and column headers survive packing, and it records the character
 * spans of the document it quotes. Selection is
 * greedy by marginal utility per token, where utility = score + a bonus for each rationale the
 * chunk covers that no packed chunk covers yet (a 0/1 knapsack heuristic: the RAG guide's "rank by
 * marginal utility per token"). The packed list is grouped by rationale, then by document, then in
 * reading order, and numbered S1, S2, … in that order; the same input always gives the same ids.
 */
import type { Candidate, DocStatus, SourceType } from '../types';
import { assertKnownOptions, EvidentError } from '../errors';
import { splitSentences, type Span } from '../text/sentences';
import type { EvidenceLookup } from './common';
import { byScoreDesc, checkInt, checkRange, metaOf, withEntry } from './common';
import { packByDocument } from './pack-document';
import { ELISION, header, SOURCE_SEPARATOR } from './pack-text';
import { termsOf, type RationalePairing } from './rationales';

/** Tokens a text takes in the generator's prompt. */
export type TokenCounter = (text: string) => number;

/**
 * Conservative estimate when the generator's tokenizer is not at hand: ⌈chars / 3.5⌉. English BPE
 * vocabularies average about 4 characters per token, so this overestimates and the budget holds.
 */
export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 3.5);

export interface PackOptions {
  /** The generator's context window in tokens. Evident default: a conservative window for small in-browser models. */
  readonly contextLimit: number;
  /** Tokens of the answer prompt's instructions. Evident default. */
  readonly systemPromptTokens: number;
  /** Tokens kept free for the answer. Evident default. */
  readonly answerReserve: number;
  /** Safety margin as a fraction of the context, for tokenizer and template slack. Evident default 5 %. */
  readonly marginRatio: number;
  /** Utility added per not-yet-covered rationale a chunk covers (scores are in [0, 1] after priors). Evident default. */
  readonly coverBonus: number;
  /** 'none': whole chunks. 'sentences': each chunk trimmed to its best-matching sentences (`trimChunk`). */
  readonly trim: TrimMode;
  /** With `trim: 'sentences'`: sentences kept per chunk, at most. */
  readonly maxSentences: number;
  /**
   * 'chunk': one source per chunk (whole, or trimmed by `trim`). 'document': one source per
   * document, quoting the best sentences of its selected chunks (pack-document.ts; `trim` and
   * `maxSentences` do not apply). Evident default 'chunk'.
   */
  readonly unit: PackUnit;
  /** Most evidence tokens, whatever the context window leaves (null: the window decides). Evident default null. */
  readonly maxTokens: number | null;
  /**
   * With `unit: 'document'`: added to a sentence's score × its relative position in the document
   * (0 first … 1 last). Evident default 0 (no prior); the SciFact profile sets it (abstracts end with results).
   */
  readonly positionPrior: number;
}

export const PACK_UNITS = ['chunk', 'document'] as const;
export type PackUnit = (typeof PACK_UNITS)[number];

export const TRIM_MODES = ['none', 'sentences'] as const;
export type TrimMode = (typeof TRIM_MODES)[number];

export const DEFAULT_PACK_OPTIONS: PackOptions = Object.freeze({
  contextLimit: 4096,
  systemPromptTokens: 300,
  answerReserve: 512,
  marginRatio: 0.05,
  coverBonus: 0.5,
  trim: 'none',
  maxSentences: 3,
  unit: 'chunk',
  maxTokens: null,
  positionPrior: 0,
});

/** One packed piece of evidence and where it came from. */
export interface PackedSource {
  /** Stable citation id: S1, S2, … in packed order. */
  readonly citationId: string;
  readonly candidateId: string;
  readonly docId: string;
  readonly chunkId: string;
  readonly title: string;
  readonly headings: readonly string[];
  readonly page?: number;
  /** Character span of the chunk in its document's text (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
  /**
   * The document spans the packed text quotes, in order: `[{ start, end }]` for a whole chunk, its
   * kept sentences when trimmed. `packEvidence` always sets it; absent means the whole chunk.
   */
  readonly spans?: readonly Span[];
  /** Exactly what goes into the prompt: the header line, a newline, the chunk text (or its kept sentences joined by " … "). */
  readonly text: string;
  readonly tokens: number;
  readonly score: number;
  readonly sourceType: SourceType;
  readonly status: DocStatus;
  readonly effectiveDate?: string;
  /** Rationales this chunk covers. */
  readonly rationaleIds: readonly string[];
  /** The rationale it is grouped under (its best-matching one), or null. */
  readonly group: string | null;
}

export interface PackInput {
  readonly question: string;
  readonly lookup: EvidenceLookup;
  /** The generator's tokenizer; `estimateTokens` when absent. */
  readonly tokenCounter?: TokenCounter;
  /** Rationale pairing, for the coverage bonus and the grouping. */
  readonly pairing?: RationalePairing;
}

export interface PackResult {
  readonly sources: readonly PackedSource[];
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Candidate[];
  /** Evidence budget in tokens and what the packed sources use (separators included). */
  readonly budget: { readonly limit: number; readonly used: number };
}

export { ELISION, SOURCE_SEPARATOR } from './pack-text';

/** A chunk's text as packed: the body and the spans (relative to the chunk text) it quotes. */
export interface TrimmedText {
  readonly text: string;
  readonly spans: readonly Span[];
}

/**
 * The at most `maxSentences` sentences of `text` that share the most distinct terms with the
 * question (Porter stems without stopwords, as rationales match), ties to the earlier sentence,
 * in reading order. Adjacent kept sentences keep the text between them; a gap becomes " … ".
 * Sentences are never cut. A text with no more sentences than that is returned whole; when no
 * sentence shares a term, the first ones are kept.
 */
export function trimChunk(text: string, questionTerms: ReadonlySet<string>, maxSentences: number): TrimmedText {
  const sentences = splitSentences(text);
  if (sentences.length <= maxSentences) return { text, spans: [{ start: 0, end: text.length }] };
  const scored = sentences.map((span, i) => {
    let hits = 0;
    for (const t of termsOf(text.slice(span.start, span.end))) if (questionTerms.has(t)) hits++;
    return { span, i, hits };
  });
  const kept = [...scored]
    .sort((a, b) => b.hits - a.hits || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  let out = '';
  const spans: Span[] = [];
  kept.forEach((k, j) => {
    const prev = kept[j - 1];
    if (prev) out += prev.i + 1 === k.i ? text.slice(prev.span.end, k.span.start) : ELISION;
    out += text.slice(k.span.start, k.span.end);
    const last = spans[spans.length - 1];
    if (last && prev && prev.i + 1 === k.i) spans[spans.length - 1] = { start: last.start, end: k.span.end };
    else spans.push(k.span);
  });
  return { text: out, spans };
}

const quoted = (spans: readonly Span[]): number => spans.reduce((a, sp) => a + sp.end - sp.start, 0);

/** The evidence budget in tokens for a question (never negative). */
export function evidenceBudget(
  question: string,
  options: Partial<PackOptions> = {},
  count: TokenCounter = estimateTokens,
): number {
  const o = { ...DEFAULT_PACK_OPTIONS, ...options };
  const margin = Math.ceil(o.marginRatio * o.contextLimit);
  const window = Math.max(0, o.contextLimit - o.systemPromptTokens - count(question) - o.answerReserve - margin);
  return o.maxTokens === null ? window : Math.min(window, o.maxTokens);
}

/** Packs whole chunks into the token budget and numbers them. */
export function packEvidence(
  candidates: readonly Candidate[],
  input: PackInput,
  options: Partial<PackOptions> = {},
): PackResult {
  assertKnownOptions(options, DEFAULT_PACK_OPTIONS, 'pack');
  const o: PackOptions = { ...DEFAULT_PACK_OPTIONS, ...options };
  checkInt('pack', 'contextLimit', o.contextLimit, 1, 100_000_000);
  checkInt('pack', 'systemPromptTokens', o.systemPromptTokens, 0, 100_000_000);
  checkInt('pack', 'answerReserve', o.answerReserve, 0, 100_000_000);
  checkRange('pack', 'marginRatio', o.marginRatio, 0, 1);
  checkRange('pack', 'coverBonus', o.coverBonus, 0, 100);
  if (!TRIM_MODES.includes(o.trim)) {
    throw new EvidentError(
      'invalid_option',
      `pack: option "trim" must be one of ${TRIM_MODES.join(', ')}, got "${String(o.trim)}".`,
    );
  }
  checkInt('pack', 'maxSentences', o.maxSentences, 1, 10_000);
  if (!PACK_UNITS.includes(o.unit)) {
    throw new EvidentError(
      'invalid_option',
      `pack: option "unit" must be one of ${PACK_UNITS.join(', ')}, got "${String(o.unit)}".`,
    );
  }
  if (o.maxTokens !== null) checkInt('pack', 'maxTokens', o.maxTokens, 0, 100_000_000);
  checkRange('pack', 'positionPrior', o.positionPrior, 0, 100);
  const questionTerms = new Set(termsOf(input.question));

  const count = input.tokenCounter ?? estimateTokens;
  const limit = evidenceBudget(input.question, o, count);
  if (o.unit === 'document') return packByDocument(candidates, input, o, limit, count);
  const sepTokens = count(SOURCE_SEPARATOR);
  const sorted = [...candidates].sort(byScoreDesc);
  // Ids are assigned after selection; count with the widest label any item could get so the
  // chosen set still fits when it is renumbered.
  const widest = `S${Math.max(1, sorted.length)}`;

  interface Item {
    readonly c: Candidate;
    readonly title: string;
    /** The packed body and the document spans it quotes. */
    readonly body: string;
    readonly spans: readonly Span[];
    readonly tokens: number;
    readonly covers: readonly string[];
  }
  const dropped: Candidate[] = [];
  const items: Item[] = [];
  for (const c of sorted) {
    const chunk = input.lookup.chunks.get(c.id);
    if (!chunk || chunk.text.length === 0) {
      dropped.push(withEntry(c, { stage: 'pack', score: c.score, kept: false, reason: 'no chunk text to pack' }));
      continue;
    }
    const title = metaOf(input.lookup, c.docId).title;
    const trimmed =
      o.trim === 'sentences'
        ? trimChunk(chunk.text, questionTerms, o.maxSentences)
        : { text: chunk.text, spans: [{ start: 0, end: chunk.text.length }] };
    const spans = trimmed.spans.map((sp) => ({ start: chunk.start + sp.start, end: chunk.start + sp.end }));
    const text = `${header(widest, title, chunk.headings, chunk.page, chunk.context)}\n${trimmed.text}`;
    items.push({
      c,
      title,
      body: trimmed.text,
      spans,
      tokens: Math.max(1, count(text)),
      covers: input.pairing?.covers.get(c.id) ?? [],
    });
  }

  const covered = new Set<string>();
  const chosen: Item[] = [];
  const remaining = new Set(items);
  let used = 0;
  for (;;) {
    let best: Item | null = null;
    let bestRatio = -Infinity;
    for (const it of remaining) {
      const cost = it.tokens + (chosen.length > 0 ? sepTokens : 0);
      if (used + cost > limit) continue;
      const fresh = it.covers.filter((r) => !covered.has(r)).length;
      const utility = Math.max(0, Number.isFinite(it.c.score) ? it.c.score : 0) + o.coverBonus * fresh;
      const ratio = utility / cost;
      if (ratio > bestRatio) {
        best = it;
        bestRatio = ratio;
      }
    }
    if (!best) break;
    used += best.tokens + (chosen.length > 0 ? sepTokens : 0);
    chosen.push(best);
    remaining.delete(best);
    for (const r of best.covers) covered.add(r);
  }
  for (const it of remaining) {
    dropped.push(
      withEntry(it.c, {
        stage: 'pack',
        score: it.c.score,
        kept: false,
        reason: `does not fit the token budget (${it.tokens} tokens, ${Math.max(0, limit - used)} left of ${limit})`,
        detail: { tokens: it.tokens, limit },
      }),
    );
  }

  // Order: by rationale group (question order), then document (best score first), then reading order.
  const rationaleOrder = new Map((input.pairing?.rationales ?? []).map((r, i) => [r.id, i]));
  const groupOf = (it: Item): string | null => {
    if (it.covers.length === 0 || !input.pairing) return null;
    let best: string | null = null;
    let bestMatch = -1;
    for (const r of it.covers) {
      const m = input.pairing.matches.get(r)?.get(it.c.id) ?? 0;
      const better =
        m > bestMatch ||
        (m === bestMatch && (rationaleOrder.get(r) ?? 0) < (rationaleOrder.get(best ?? '') ?? Infinity));
      if (better) {
        best = r;
        bestMatch = m;
      }
    }
    return best;
  };
  const groups = new Map(chosen.map((it) => [it.c.id, groupOf(it)]));
  const groupRank = (g: string | null): number => (g === null ? Infinity : (rationaleOrder.get(g) ?? Infinity));
  const docBest = new Map<string, number>();
  for (const it of chosen) {
    const key = `${groups.get(it.c.id) ?? ''}\u0000${it.c.docId}`;
    docBest.set(key, Math.max(docBest.get(key) ?? -Infinity, it.c.score));
  }
  const ordinal = (it: Item): number => input.lookup.chunks.get(it.c.id)?.ordinal ?? 0;
  const ordered = [...chosen].sort((a, b) => {
    const ga = groups.get(a.c.id) ?? null;
    const gb = groups.get(b.c.id) ?? null;
    const gr = groupRank(ga) - groupRank(gb);
    if (gr !== 0 && !Number.isNaN(gr)) return gr;
    const da = docBest.get(`${ga ?? ''}\u0000${a.c.docId}`) as number;
    const db = docBest.get(`${gb ?? ''}\u0000${b.c.docId}`) as number;
    if (da !== db) return db - da;
    if (a.c.docId !== b.c.docId) return a.c.docId < b.c.docId ? -1 : 1;
    return ordinal(a) - ordinal(b) || byScoreDesc(a.c, b.c);
  });

  // Final texts with the real ids; the widest-label count bounds them, but re-check so the budget
  // is a guarantee rather than an assumption about the tokenizer.
  let final = ordered.map((it, i) => {
    const chunk = input.lookup.chunks.get(it.c.id)!;
    const citationId = `S${i + 1}`;
    const text = `${header(citationId, it.title, chunk.headings, chunk.page, chunk.context)}\n${it.body}`;
    return { it, chunk, citationId, text, tokens: count(text) };
  });
  const total = (xs: typeof final): number =>
    xs.reduce((a, x) => a + x.tokens, 0) + Math.max(0, xs.length - 1) * sepTokens;
  while (final.length > 0 && total(final) > limit) {
    const worst = [...final].sort((a, b) => byScoreDesc(b.it.c, a.it.c))[0]!;
    dropped.push(
      withEntry(worst.it.c, {
        stage: 'pack',
        score: worst.it.c.score,
        kept: false,
        reason: 'does not fit the token budget after numbering',
      }),
    );
    final = final
      .filter((x) => x !== worst)
      .map((x, i) => {
        const citationId = `S${i + 1}`;
        const text = `${header(citationId, x.it.title, x.chunk.headings, x.chunk.page, x.chunk.context)}\n${x.it.body}`;
        return { ...x, citationId, text, tokens: count(text) };
      });
  }

  const sources: PackedSource[] = [];
  const kept: Candidate[] = [];
  for (const x of final) {
    const meta = metaOf(input.lookup, x.it.c.docId);
    const source: PackedSource = {
      citationId: x.citationId,
      candidateId: x.it.c.id,
      docId: x.it.c.docId,
      chunkId: x.chunk.id,
      title: x.it.title,
      headings: x.chunk.headings,
      ...(x.chunk.page !== undefined ? { page: x.chunk.page } : {}),
      start: x.chunk.start,
      end: x.chunk.end,
      spans: x.it.spans,
      text: x.text,
      tokens: x.tokens,
      score: x.it.c.score,
      sourceType: meta.sourceType,
      status: meta.status,
      ...(meta.effectiveDate !== undefined ? { effectiveDate: meta.effectiveDate } : {}),
      rationaleIds: x.it.covers,
      group: groups.get(x.it.c.id) ?? null,
    };
    sources.push(source);
    kept.push(
      withEntry(x.it.c, {
        stage: 'pack',
        score: x.it.c.score,
        kept: true,
        reason: `packed as ${x.citationId}`,
        detail: {
          citationId: x.citationId,
          tokens: x.tokens,
          group: source.group,
          ...(o.trim === 'sentences' ? { quotedSpans: x.it.spans.length, quotedChars: quoted(x.it.spans) } : {}),
        },
      }),
    );
  }
  return { sources, kept, dropped, budget: { limit, used: total(final) } };
}
