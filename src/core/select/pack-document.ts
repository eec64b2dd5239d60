/**
 * Packing by document (`pack.unit: 'document'`): one source per document, quoting the sentences of
 * its selected chunks that best match the question, under the token budget.
 *
 * Whole-chunk packing pays a header line per chunk and quotes every sentence of a window; under a
 * tight budget that buys one window. Here a document's header is paid once and the budget goes to
 * sentences, chosen across all of the document's selected chunks (never beyond them: only text the
 * earlier stages, verify included, have seen is quoted):
 *
 *   sentence score = share of the question's terms it holds + positionPrior × its relative
 *                    position in the document (0 first … 1 last)
 *
 * Terms are Porter stems without stopwords, as rationales match. The position prior is off by
 * default; abstracts state results last, so the SciFact profile sets it (src/cli/ablation.ts).
 *
 * Greedy, in two passes: every document (best first) gets its best sentence while it fits, so the
 * budget never silently drops a document selection kept; then the remaining sentences, best score
 * first (ties: the better document, then reading order), each while it fits. A sentence is never
 * cut. Within a source, sentences are in reading order; neighbours join with a space, gaps become
 * " … " (`ELISION`). `PackedSource.spans` lists the quoted document spans.
 *
 * Citation ids S1, S2, … follow the documents' best scores. A source's candidate is its document's
 * best chunk; the document's other chunks are recorded as quoted in that source (or as not fitting).
 */
import type { Candidate, Chunk } from '../types';
import { splitSentences, type Span } from '../text/sentences';
import type { EvidenceLookup } from './common';
import { byScoreDesc, metaOf, withEntry } from './common';
import type { PackedSource, PackInput, PackOptions, PackResult, TokenCounter } from './pack';
import { ELISION, SOURCE_SEPARATOR, sourceHeader } from './pack-text';
import { termsOf } from './rationales';

/** One sentence of a selected chunk, in document offsets. */
interface Sentence {
  readonly candidate: Candidate;
  readonly chunk: Chunk;
  /** Document character span. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly score: number;
  /** Rank of the document among the packed documents (0 = best). */
  readonly docRank: number;
}

interface DocGroup {
  readonly docId: string;
  readonly rank: number;
  readonly best: Candidate;
  readonly candidates: readonly Candidate[];
  readonly title: string;
  readonly sentences: readonly Sentence[];
}

/** The document's end offset: the last chunk reachable by `nextId` in the lookup (bounded walk). */
function documentEnd(lookup: EvidenceLookup, chunk: Chunk): number {
  let end = chunk.end;
  let next = chunk.nextId;
  for (let steps = 0; next && steps < 10_000; steps++) {
    const c = lookup.chunks.get(next);
    if (!c) break;
    end = Math.max(end, c.end);
    next = c.nextId;
  }
  return end;
}

/** Share of the question's terms a sentence holds, plus the position prior. */
export function sentenceScore(
  text: string,
  questionTerms: ReadonlySet<string>,
  relativePosition: number,
  positionPrior: number,
): number {
  const terms = new Set(termsOf(text));
  let hits = 0;
  for (const t of terms) if (questionTerms.has(t)) hits++;
  return hits / Math.max(1, questionTerms.size) + positionPrior * relativePosition;
}

function groupByDocument(
  candidates: readonly Candidate[],
  input: PackInput,
  o: PackOptions,
  dropped: Candidate[],
): DocGroup[] {
  const questionTerms = new Set(termsOf(input.question));
  const byDoc = new Map<string, Candidate[]>();
  for (const c of [...candidates].sort(byScoreDesc)) {
    const chunk = input.lookup.chunks.get(c.id);
    if (!chunk || chunk.text.length === 0) {
      dropped.push(withEntry(c, { stage: 'pack', score: c.score, kept: false, reason: 'no chunk text to pack' }));
      continue;
    }
    const list = byDoc.get(c.docId) ?? [];
    byDoc.set(c.docId, list);
    list.push(c);
  }
  return [...byDoc].map(([docId, list], rank) => {
    const best = list[0] as Candidate;
    const seen = new Set<number>();
    const sentences: Sentence[] = [];
    let docEnd = 0;
    for (const c of list) docEnd = Math.max(docEnd, documentEnd(input.lookup, input.lookup.chunks.get(c.id)!));
    for (const c of list) {
      const chunk = input.lookup.chunks.get(c.id)!;
      for (const sp of splitSentences(chunk.text)) {
        const start = chunk.start + sp.start;
        if (seen.has(start)) continue; // overlapping windows of one document quote a sentence once
        seen.add(start);
        const text = chunk.text.slice(sp.start, sp.end);
        const position = docEnd > 0 ? start / docEnd : 0;
        sentences.push({
          candidate: c,
          chunk,
          start,
          end: chunk.start + sp.end,
          text,
          score: sentenceScore(text, questionTerms, position, o.positionPrior),
          docRank: rank,
        });
      }
    }
    sentences.sort((a, b) => a.start - b.start);
    return { docId, rank, best, candidates: list, title: metaOf(input.lookup, docId).title, sentences };
  });
}

/** Two sentences are neighbours when nothing lies between them in the document (one chunk, or linked chunks). */
function neighbours(a: Sentence, b: Sentence, all: readonly Sentence[]): boolean {
  const i = all.indexOf(a);
  if (all[i + 1] !== b) return false;
  return a.chunk.id === b.chunk.id || a.chunk.nextId === b.chunk.id;
}

/** A document's packed body and the spans it quotes, for the chosen sentences (reading order). */
function bodyOf(chosen: readonly Sentence[], all: readonly Sentence[]): { text: string; spans: Span[] } {
  const sorted = [...chosen].sort((a, b) => a.start - b.start);
  let text = '';
  const spans: Span[] = [];
  sorted.forEach((s, j) => {
    const prev = sorted[j - 1];
    const adjacent = prev !== undefined && neighbours(prev, s, all);
    if (prev)
      text += adjacent
        ? prev.chunk.id === s.chunk.id
          ? s.chunk.text.slice(prev.end - s.chunk.start, s.start - s.chunk.start)
          : ' '
        : ELISION;
    text += s.text;
    const last = spans[spans.length - 1];
    if (last && adjacent && prev.chunk.id === s.chunk.id) spans[spans.length - 1] = { start: last.start, end: s.end };
    else spans.push({ start: s.start, end: s.end });
  });
  return { text, spans };
}

/** Packs one source per document from its best sentences (see the file comment). */
export function packByDocument(
  candidates: readonly Candidate[],
  input: PackInput,
  o: PackOptions,
  limit: number,
  count: TokenCounter,
): PackResult {
  const dropped: Candidate[] = [];
  const groups = groupByDocument(candidates, input, o, dropped);
  const sepTokens = count(SOURCE_SEPARATOR);
  const widest = `S${Math.max(1, groups.length)}`;
  const chosen = new Map<string, Sentence[]>(); // docId → chosen sentences
  const tokensOf = new Map<string, number>();
  let used = 0;

  const cost = (g: DocGroup, add: Sentence): number => {
    const next = [...(chosen.get(g.docId) ?? []), add];
    const text = `${sourceHeader(widest, g.title, g.best.id, input.lookup)}\n${bodyOf(next, g.sentences).text}`;
    const tokens = Math.max(1, count(text));
    const before = tokensOf.get(g.docId);
    return before === undefined ? tokens + (tokensOf.size > 0 ? sepTokens : 0) : tokens - before;
  };
  const take = (g: DocGroup, s: Sentence, c: number): void => {
    chosen.set(g.docId, [...(chosen.get(g.docId) ?? []), s]);
    const before = tokensOf.get(g.docId);
    tokensOf.set(g.docId, before === undefined ? c - (tokensOf.size > 0 ? sepTokens : 0) : before + c);
    used += c;
  };
  const byScore = (a: Sentence, b: Sentence): number => b.score - a.score || a.docRank - b.docRank || a.start - b.start;

  // Pass 1: every document its best sentence, best document first.
  for (const g of groups) {
    for (const s of [...g.sentences].sort(byScore)) {
      const c = cost(g, s);
      if (used + c <= limit) {
        take(g, s, c);
        break;
      }
    }
  }
  // Pass 2: the remaining sentences, best first.
  const taken = new Set([...chosen.values()].flat());
  const rest = groups.flatMap((g) => g.sentences.filter((s) => !taken.has(s)).map((s) => ({ g, s })));
  rest.sort((a, b) => byScore(a.s, b.s));
  for (const { g, s } of rest) {
    const c = cost(g, s);
    if (used + c <= limit) take(g, s, c);
  }

  // Final texts with the real ids, in document order; re-check the budget with them.
  const packedGroups = groups.filter((g) => chosen.has(g.docId));
  const render = (list: readonly DocGroup[]) =>
    list.map((g, i) => {
      const citationId = `S${i + 1}`;
      const body = bodyOf(chosen.get(g.docId)!, g.sentences);
      const text = `${sourceHeader(citationId, g.title, g.best.id, input.lookup)}\n${body.text}`;
      return { g, citationId, body, text, tokens: count(text) };
    });
  let final = render(packedGroups);
  const total = (xs: typeof final): number =>
    xs.reduce((a, x) => a + x.tokens, 0) + Math.max(0, xs.length - 1) * sepTokens;
  while (final.length > 0 && total(final) > limit) {
    const worst = final[final.length - 1]!;
    chosen.delete(worst.g.docId);
    final = render(final.slice(0, -1).map((x) => x.g));
  }

  const sources: PackedSource[] = [];
  const kept: Candidate[] = [];
  const packedDocs = new Set(final.map((x) => x.g.docId));
  for (const x of final) {
    const { g } = x;
    const quoted = chosen.get(g.docId)!;
    const contributors = new Set(quoted.map((s) => s.candidate.id));
    const chunk = input.lookup.chunks.get(g.best.id)!;
    const meta = metaOf(input.lookup, g.docId);
    const covers = [
      ...new Set(
        g.candidates.filter((c) => contributors.has(c.id)).flatMap((c) => input.pairing?.covers.get(c.id) ?? []),
      ),
    ];
    const group = bestGroup(
      covers,
      g.candidates.filter((c) => contributors.has(c.id)),
      input,
    );
    sources.push({
      citationId: x.citationId,
      candidateId: g.best.id,
      docId: g.docId,
      chunkId: chunk.id,
      title: g.title,
      headings: chunk.headings,
      ...(chunk.page !== undefined ? { page: chunk.page } : {}),
      start: Math.min(...x.body.spans.map((sp) => sp.start)),
      end: Math.max(...x.body.spans.map((sp) => sp.end)),
      spans: x.body.spans,
      text: x.text,
      tokens: x.tokens,
      score: g.best.score,
      sourceType: meta.sourceType,
      status: meta.status,
      ...(meta.effectiveDate !== undefined ? { effectiveDate: meta.effectiveDate } : {}),
      rationaleIds: covers,
      group,
    });
    kept.push(
      withEntry(g.best, {
        stage: 'pack',
        score: g.best.score,
        kept: true,
        reason: `packed as ${x.citationId}`,
        detail: { citationId: x.citationId, tokens: x.tokens, group, quotedSentences: quoted.length },
      }),
    );
    for (const c of g.candidates.slice(1)) {
      const n = quoted.filter((s) => s.candidate.id === c.id).length;
      dropped.push(
        withEntry(c, {
          stage: 'pack',
          score: c.score,
          kept: false,
          reason:
            n > 0
              ? `${n} of its sentences quoted in ${x.citationId} (one source per document)`
              : `none of its sentences fit the token budget beside ${x.citationId}`,
          detail: { mergedInto: x.citationId, quotedSentences: n },
        }),
      );
    }
  }
  for (const g of groups) {
    if (packedDocs.has(g.docId)) continue;
    for (const c of g.candidates) {
      dropped.push(
        withEntry(c, {
          stage: 'pack',
          score: c.score,
          kept: false,
          reason: `does not fit the token budget (${Math.max(0, limit - total(final))} left of ${limit})`,
          detail: { limit },
        }),
      );
    }
  }
  return { sources, kept, dropped, budget: { limit, used: total(final) } };
}

/** The rationale a source is grouped under: its strongest match among the quoted candidates. */
function bestGroup(covers: readonly string[], quoted: readonly Candidate[], input: PackInput): string | null {
  if (covers.length === 0 || !input.pairing) return null;
  const order = new Map(input.pairing.rationales.map((r, i) => [r.id, i]));
  let best: string | null = null;
  let bestMatch = -1;
  for (const r of covers) {
    const m = Math.max(0, ...quoted.map((c) => input.pairing!.matches.get(r)?.get(c.id) ?? 0));
    if (m > bestMatch || (m === bestMatch && (order.get(r) ?? 0) < (order.get(best ?? '') ?? Infinity))) {
      best = r;
      bestMatch = m;
    }
  }
  return best;
}
