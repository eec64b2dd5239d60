/**
 * The release guard: an answer is released only when the evidence forms a chain —
 *
 *   a *binding record* (of a kind the evidence itself says is binding, naming the question's
 *   entity, headed as one: `authority.ts`), plus, for every identifier it names and does not
 *   define (its links, however worded), the record that defines it (followed up to `maxHops`
 *   records) —
 *
 * and when no other independent source of a binding record states a different answer.
 * Look-alike records are grouped by the verify stage's lineage detection (`detectLineage`, shared,
 * not copied): a coordinated group of near-copies is one source, however many pages it has, so it
 * never outvotes or corroborates anything by its size; documents that agree on a value and share
 * nothing else (a claim written to order: verify/coordination.ts, the same detector) are one source
 * too, and never the binding record. Otherwise: not released, saying which premise stayed unresolved.
 */
import { assertKnownOptions } from '../errors';
import { checkInt } from '../util/stage';
import type { Candidate, Chunk, DocumentMeta } from '../types';
import { fnv1a64 } from '../util/hash';
import type { EvidenceLookup } from '../util/stage';
import { coordinatedIds, detectCoordination, type ValueGroup } from '../verify/coordination';
import { detectLineage } from '../verify/lineage';
import { bindingKindsIn, isOfKind } from './authority';
import { defines, headOf, identifiersIn, linksOf, namesAll, namesIn, sentencesOf } from './mentions';
import { bindingKindsOfEvidence } from './premises';
import type { InquiryRecord, ReleaseDecision } from './types';

export interface ReleaseOptions {
  /** Records a chain may follow beyond the binding record (two-hop = 1). Evident default. */
  readonly maxHops: number;
}

export const DEFAULT_RELEASE_OPTIONS: ReleaseOptions = Object.freeze({ maxHops: 3 });

export interface ReleaseInput {
  readonly question: string;
  readonly evidence: readonly InquiryRecord[];
  /** Unit vectors by record id, when the caller has them (lineage then links paraphrases too). */
  readonly vectorOf?: (id: string) => Float32Array | undefined;
}

/** The records as verify-stage candidates over a lookup of their texts. */
function asCandidates(
  records: readonly InquiryRecord[],
  vectorOf?: (id: string) => Float32Array | undefined,
): { candidates: Candidate[]; lookup: EvidenceLookup } {
  const chunks = new Map<string, Chunk>();
  const documents = new Map<string, DocumentMeta>();
  const candidates: Candidate[] = records.map((r, i) => {
    chunks.set(r.id, {
      id: r.id,
      docId: r.docId,
      ordinal: 0,
      text: r.text,
      headings: [],
      start: 0,
      end: r.text.length,
      prevId: null,
      nextId: null,
      hash: fnv1a64(r.text),
      tokens: 0,
    });
    documents.set(r.docId, { id: r.docId, title: r.title, sourceType: 'unknown', status: 'current' });
    return { id: r.id, docId: r.docId, score: records.length - i, scores: {}, ranks: {}, trace: [] };
  });
  return { candidates, lookup: { chunks, documents, ...(vectorOf ? { vectorOf } : {}) } };
}

/** Value groups of the records (verify/coordination.ts, shared with the verify stage). */
function coordinationOf(question: string, records: readonly InquiryRecord[]): readonly ValueGroup[] {
  const { candidates, lookup } = asCandidates(records);
  return detectCoordination(candidates, { question, lookup }).groups;
}

/** Lineage clusters, with the records of each coordinated group in `groups` made one source. */
function sourcesWith(
  records: readonly InquiryRecord[],
  vectorOf: ((id: string) => Float32Array | undefined) | undefined,
  groups: readonly ValueGroup[],
): ReadonlyMap<string, string> {
  const { candidates, lookup } = asCandidates(records, vectorOf);
  const lineage = detectLineage(candidates, { lookup }, { dropReplicas: false });
  const out = new Map(lineage.clusterOf);
  for (const g of groups) {
    if (!g.coordinated) continue;
    for (const id of g.candidateIds) out.set(id, `coordinated:${g.kind}:${g.key}`);
  }
  return out;
}

/**
 * Source id of every record: its lineage cluster (the verify stage's; a singleton is its own), and
 * one source for all the records of a coordinated claim (verify/coordination.ts) when the question
 * is given — documents that agree on a value and share nothing else are not independent.
 */
export function sourcesOf(
  records: readonly InquiryRecord[],
  vectorOf?: (id: string) => Float32Array | undefined,
  question?: string,
): ReadonlyMap<string, string> {
  return sourcesWith(records, vectorOf, question === undefined ? [] : coordinationOf(question, records));
}

interface Chain {
  readonly ids: readonly string[];
  readonly records: readonly InquiryRecord[];
  /** The identifier no held record defines, when the chain is broken. */
  readonly missing: string | null;
}

/** The chain from a binding record: the records its identifiers lead to (its links), breadth first. */
function chainFrom(head: InquiryRecord, evidence: readonly InquiryRecord[], maxHops: number): Chain {
  const records = [head];
  const queue = [head];
  while (queue.length > 0) {
    const r = queue.shift() as InquiryRecord;
    // Every identifier the record names and does not define is a link, however it is worded.
    for (const { id } of linksOf(r)) {
      if (records.some((x) => defines(x, id))) continue;
      const target = evidence.find((x) => x.docId !== r.docId && defines(x, id));
      if (!target) return { ids: records.map((x) => x.id), records, missing: id };
      if (records.length > maxHops) return { ids: records.map((x) => x.id), records, missing: id };
      records.push(target);
      queue.push(target);
    }
  }
  return { ids: records.map((x) => x.id), records, missing: null };
}

/**
 * The answer a chain states: its sentences, without those that only restate the question's
 * subject (they name the entity and no other name, identifier or number).
 */
export function chainAnswer(records: readonly InquiryRecord[], entity: readonly string[]): string {
  return chainSentences(records, entity)
    .map((s) => s.text)
    .join(' ');
}

/** `chainAnswer`'s sentences, each with the record it is quoted from. */
export function chainSentences(
  records: readonly InquiryRecord[],
  entity: readonly string[],
): { recordId: string; text: string }[] {
  const keep: { recordId: string; text: string }[] = [];
  for (const r of records) {
    for (const s of sentencesOf(r.text)) {
      // A title line ("Agreement") heads the record; it states nothing.
      if (!/[.!?:;]["'”’)]*\s*$/u.test(s) && s.trim().split(/\s+/u).length < 4) continue;
      let rest = s;
      for (const e of entity) rest = rest.split(e).join(' ');
      const restates =
        entity.some((e) => s.includes(e)) &&
        !(namesIn(rest).length > 0 || identifiersIn(rest).length > 0 || /\d/u.test(rest));
      if (!restates) keep.push({ recordId: r.id, text: s });
    }
  }
  return keep;
}

/** What an answer asserts, for comparing two sources: its names and numbers, identifiers aside. */
function assertedValues(answer: string): string {
  let rest = answer;
  for (const id of identifiersIn(answer)) rest = rest.split(id).join(' ');
  const numbers = rest.match(/\d+[A-Za-z]?/gu) ?? [];
  return [...new Set([...namesIn(rest), ...numbers])].sort().join('|');
}

function notReleased(reason: string, unresolved: string | null, chain: readonly string[] = []): ReleaseDecision {
  return { released: false, chain, answer: '', sentences: [], reason, unresolved };
}

/** Decides whether the evidence releases an answer, and which. */
export function releaseGuard(input: ReleaseInput, options: Partial<ReleaseOptions> = {}): ReleaseDecision {
  assertKnownOptions(options, DEFAULT_RELEASE_OPTIONS, 'release');
  const o = { ...DEFAULT_RELEASE_OPTIONS, ...options };
  checkInt('release', 'maxHops', o.maxHops, 0, 16);
  const { question, evidence } = input;
  const entity = namesIn(question);
  const kinds = bindingKindsOfEvidence(evidence);
  if (kinds.length === 0) {
    return notReleased('No record found says which kind of record settles this question.', null);
  }
  if (entity.length === 0) return notReleased('The question names no subject a record could be bound to.', null);
  // A record that states which kind binds is guidance, not the binding record itself.
  const heads = evidence.filter(
    (r) => namesAll(r.text, entity) && kinds.some((k) => isOfKind(r, k)) && bindingKindsIn(headOf(r)).length === 0,
  );
  const first = kinds[0] as (typeof kinds)[number];
  const firstText = first.issuer ? `${first.kind} of the ${first.issuer}` : first.kind;
  if (heads.length === 0) {
    return notReleased(
      `No ${firstText} about ${entity.join(', ')} was found; the pages found are not the record that settles it.`,
      firstText,
    );
  }
  // Records written to order (several documents agreeing on one value and on nothing else) bind nothing.
  const groups = coordinationOf(question, evidence);
  const suspect = coordinatedIds(groups);
  const trusted = heads.filter((h) => !suspect.has(h.id));
  if (trusted.length === 0) {
    return notReleased(
      `The records that read as the ${firstText} (${heads.map((h) => h.id).join(', ')}) agree on one value and share nothing else with any other record: they are written to order, not independent records.`,
      firstText,
      heads.map((h) => h.id),
    );
  }
  const chains = trusted.map((h) => chainFrom(h, evidence, o.maxHops));
  const complete = chains.filter((c) => c.missing === null);
  if (complete.length === 0) {
    const c = chains[0] as Chain;
    return notReleased(
      `The binding record ${c.ids[0]} refers to ${c.missing}, and no record found defines it.`,
      c.missing,
      c.ids,
    );
  }
  // Group the complete chains by what they assert; each group counts its lineage clusters once.
  const source = sourcesWith(evidence, input.vectorOf, groups);
  const byValue = new Map<string, { chain: Chain; answer: string; sources: Set<string> }>();
  for (const c of complete) {
    const answer = chainAnswer(c.records, entity);
    const values = assertedValues(answer);
    const src = source.get(c.ids[0] as string) ?? (c.ids[0] as string);
    const had = byValue.get(values);
    if (had) had.sources.add(src);
    else byValue.set(values, { chain: c, answer, sources: new Set([src]) });
  }
  if (byValue.size > 1) {
    return notReleased(
      `Binding records state different answers (${[...byValue.values()].map((a) => a.chain.ids[0]).join(', ')}), so none is released.`,
      firstText,
    );
  }
  const best = [...byValue.values()][0] as { chain: Chain; answer: string; sources: Set<string> };
  const hops = best.chain.ids.length - 1;
  return {
    released: true,
    chain: best.chain.ids,
    answer: best.answer,
    sentences: chainSentences(best.chain.records, entity),
    reason:
      hops === 0
        ? `Released: ${best.chain.ids[0]} is a binding record that names ${entity.join(', ')}.`
        : `Released: ${best.chain.ids[0]} names ${entity.join(', ')} and refers on to ${best.chain.ids.slice(1).join(', ')}, which ${hops === 1 ? 'defines' : 'define'} what it refers to.`,
    unresolved: null,
  };
}
