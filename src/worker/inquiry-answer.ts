/**
 * The answer premise-directed inquiry released (src/core/inquiry), as the app's answer.
 *
 * When the first evidence leaves the question unresolved (abstain, conflict, partial) and the
 * follow-up queries found a chain of binding records that the release guard releases, the
 * user gets that chain's sentences, each quoted verbatim and cited to the record it comes from,
 * with the records appended to the sources (a record already among them keeps its citation).
 * What the first evidence said stays on the result (`firstPass`) and the trail shows every round,
 * so the change of answer is never silent. A supported first answer is never replaced.
 */
import type { InquiryTrace } from '../core/inquiry';
import type { Chunk, DocumentMeta } from '../core/types';
import type { AskAnswer, AskOutcome, AskSource } from './ask-api';

export interface InquiryAnswer {
  readonly answer: AskAnswer;
  readonly sources: readonly AskSource[];
  /** Which records settled it, in the user's terms (titles and citations). */
  readonly reason: string;
}

/** The released inquiry answer for this ask, or null when the first answer stands. */
export function inquiryAnswer(
  outcome: AskOutcome,
  trace: InquiryTrace,
  sources: readonly AskSource[],
  view: { chunks: ReadonlyMap<string, Chunk>; documents: ReadonlyMap<string, DocumentMeta> },
): InquiryAnswer | null {
  const release = trace.release;
  if (outcome === 'supported' || !trace.triggered || !release.released || release.sentences.length === 0) return null;
  const out = [...sources];
  const citationOf = new Map(sources.map((s) => [s.chunkId, s.citationId]));
  for (const id of release.chain) {
    if (citationOf.has(id)) continue;
    const chunk = view.chunks.get(id);
    const meta = chunk ? view.documents.get(chunk.docId) : undefined;
    if (!chunk || !meta) return null; // a record the library no longer holds: nothing to cite
    const citationId = `S${out.length + 1}`;
    citationOf.set(id, citationId);
    out.push({
      citationId,
      docId: chunk.docId,
      chunkId: chunk.id,
      title: meta.title,
      headings: chunk.headings,
      page: chunk.page ?? null,
      start: chunk.start,
      end: chunk.end,
      text: chunk.text,
      tokens: 0,
      score: 0,
      sourceType: meta.sourceType,
      status: meta.status,
      effectiveDate: meta.effectiveDate ?? null,
      rationaleIds: [],
    });
  }
  const sentences = release.sentences.map((s) => ({
    text: s.text,
    citationIds: [citationOf.get(s.recordId) as string],
    // Verbatim from the cited record: the citation holds the sentence.
    supported: true,
    problem: null,
  }));
  return {
    answer: {
      kind: 'answer',
      text: sentences.map((s) => `${s.text} [${s.citationIds[0]}]`).join(' '),
      sentences,
      short: null,
      answerer: 'inquiry',
    },
    sources: out,
    reason: `Answered from ${release.chain
      .map((id) => {
        const src = out.find((x) => x.chunkId === id);
        return src ? `“${src.title}” [${src.citationId}]` : id;
      })
      .join(
        ', then ',
      )}: the ${release.chain.length > 1 ? 'records' : 'record'} that decide it, found by follow-up searches.`,
  };
}
