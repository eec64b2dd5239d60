/**
 * Search inside the sections a question names (./sections.ts), merged into the lexical list.
 *
 * For each named section, the same weighted BM25 query — plus the line items of any financial
 * measure the question asks for — is scored over that section's chunks only, and its best
 * `perSection` chunks join the lexical list with a bonus of `boost` × the list's top score: a
 * chunk of the balance sheet that holds "Total current assets" outranks a risk factor that
 * repeats the question's words. A chunk already in the list keeps the higher of its two scores
 * before the bonus. Sections without a named match change nothing, so collections without
 * headings (abstracts, news) search exactly as before.
 *
 * `boost` and `perSection` are set by hand, not searched over: with them the financebench dev
 * half's top-20 page hit went 65 % → 83 % (keywords only, `npm run eval -- --dataset
 * ../shared/datasets/financebench-dev --docqa --lexical-only`;
 * docs/decisions/2026-12-02-section-search.md). No other values were tried.
 */
import type { Bm25Hit, Bm25Index, Bm25TermTrace } from '../lexical/bm25';
import type { SectionMatch } from './sections';

export interface SectionSearchOptions {
  /** Chunks taken from each named section. */
  readonly perSection: number;
  /** Bonus, as a share of the lexical list's top score. */
  readonly boost: number;
  /** Length of the merged list. */
  readonly k: number;
}

export const DEFAULT_SECTION_SEARCH: Readonly<Omit<SectionSearchOptions, 'k'>> = Object.freeze({
  perSection: 4,
  boost: 0.5,
});

/** Why a hit is in the list: the section it was found in. */
export interface SectionHitTrace {
  readonly section: string;
  readonly via: 'name' | 'measure';
  readonly bonus: number;
}

export interface SectionSearchResult {
  readonly hits: readonly Bm25Hit[];
  readonly traces: ReadonlyMap<string, SectionHitTrace>;
}

class ScoredHit implements Bm25Hit {
  constructor(
    readonly id: string,
    readonly score: number,
    private readonly from: Bm25Hit,
  ) {}
  get terms(): readonly Bm25TermTrace[] {
    return this.from.terms;
  }
}

export function searchNamedSections(
  index: Bm25Index,
  query: ReadonlyMap<string, number>,
  match: SectionMatch,
  lexical: readonly Bm25Hit[],
  options: SectionSearchOptions,
): SectionSearchResult {
  const traces = new Map<string, SectionHitTrace>();
  if (match.sections.length === 0) return { hits: lexical, traces };
  const inner = new Map(query);
  for (const t of match.expansion) inner.set(t, Math.max(inner.get(t) ?? 0, 1));
  const top = lexical[0]?.score ?? 0;
  const bonus = options.boost * (top > 0 ? top : 1);
  const byId = new Map<string, Bm25Hit>(lexical.map((h) => [h.id, h]));
  for (const section of match.sections) {
    const within = new Set(section.chunkIds);
    for (const h of index.searchWeighted(inner, { k: options.perSection, within })) {
      if (traces.has(h.id)) continue;
      const before = byId.get(h.id);
      const base = Math.max(before?.score ?? 0, h.score);
      byId.set(h.id, new ScoredHit(h.id, base + bonus, before ?? h));
      traces.set(h.id, { section: section.name, via: section.via, bonus });
    }
  }
  // Stable: equal scores keep the lexical order, then the order sections were searched in.
  const hits = [...byId.values()].sort((a, b) => b.score - a.score);
  return { hits: hits.slice(0, options.k), traces };
}
