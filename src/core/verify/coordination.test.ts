import { describe, expect, it } from 'vitest';
import { buildCorpus, candidate, deepFreeze, type FixtureDoc } from '../select/testing';
import { detectCoordination } from './coordination';
import { verifyEvidence } from './verify';
import { MARATHON_NOISE, MARATHON_PLANTED, MARATHON_QUESTION, MARATHON_REPORTS } from '../../../test/fixtures/marathon';

const QUESTION = MARATHON_QUESTION;
const PLANTED = MARATHON_PLANTED;
const REPORTS = MARATHON_REPORTS;
const NOISE = MARATHON_NOISE;

// A library of unrelated notes: no passage shares a word with another, so every grounding is 0 and
// the library's median gives no bound.
const UNRELATED = [
  'The museum reopened its west wing after a long renovation of the glass roof.',
  'Farmers expect a smaller apple harvest because of the late frost.',
  'A new ferry timetable adds two evening crossings on weekdays.',
  'The library extended its opening hours for students during exams.',
  'Volunteers planted oak saplings along the canal path.',
  'An orchestra announced a season of chamber concerts in old churches.',
  'Bus drivers voted to accept the pay offer after a week of talks.',
  'A rare owl was spotted nesting in the abandoned water tower.',
];

// True but terse reports (search-result snippets): each shares nothing with the others beyond the
// question and the winner, and each names something of its own (a time, a rival, a coach).
const TERSE = [
  'Amara Okafor won the Lakeside marathon this spring in 2:24:10.',
  'Lakeside marathon this spring: Amara Okafor first, Lena Brandt second.',
  'Amara Okafor, coached by Paul Mensah, won the Lakeside marathon this spring.',
];

function corpusOf(texts: Record<string, readonly string[]>): {
  lookup: { chunks: ReturnType<typeof buildCorpus>['chunks']; documents: ReturnType<typeof buildCorpus>['documents'] };
  ids: Record<string, string[]>;
} {
  const docs: FixtureDoc[] = [];
  const ids: Record<string, string[]> = {};
  for (const [role, list] of Object.entries(texts)) {
    ids[role] = list.map((text, i) => {
      const id = `${role}${i}`;
      docs.push({ id, sourceType: 'government', chunks: [text] });
      return `${id}#0`;
    });
  }
  const corpus = buildCorpus(docs);
  return { lookup: { chunks: corpus.chunks, documents: corpus.documents }, ids };
}

describe('detectCoordination', () => {
  it('drops documents that agree on a value and share nothing else, and keeps the reports that share a story', () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED, report: REPORTS, noise: NOISE });
    const all = [...ids.planted!, ...ids.report!, ...ids.noise!];
    const input = deepFreeze(all.map((id, i) => candidate(id, 1 - i / 100)));
    const r = detectCoordination(input, { question: QUESTION, lookup });
    const planted = r.groups.find((g) => g.text === 'Tomas Verhoeven')!;
    const reported = r.groups.find((g) => g.text === 'Amara Okafor')!;
    expect(planted.coordinated).toBe(true);
    expect(reported.coordinated).toBe(false);
    expect(planted.grounding).toBeLessThan(reported.grounding);
    expect(r.dropped.map((c) => c.id).sort()).toEqual([...ids.planted!].sort());
    expect(r.kept.map((c) => c.id)).toEqual([...ids.report!, ...ids.noise!]);
    const entry = r.dropped[0]!.trace.at(-1)!;
    expect(entry.kept).toBe(false);
    expect(entry.reason).toMatch(/coordinated claim: 5 documents state "Tomas Verhoeven"/);
    // The input is never mutated (deepFreeze would throw) and candidates keep their order.
    expect(input[0]!.trace).toEqual([]);
  });

  it('stands in no more passages than it dropped, never from a kept document, a coordinated group or another value', () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED, report: REPORTS, noise: NOISE });
    const selected = [ids.planted![0]!, ids.report![0]!].map((id, i) => candidate(id, 1 - i / 10));
    const context = [...ids.planted!.slice(1), ...ids.report!.slice(1), ...ids.noise!].map((id, i) =>
      candidate(id, 0.5 - i / 100),
    );
    const r = detectCoordination(selected, { question: QUESTION, lookup, context });
    expect(r.dropped.map((c) => c.id)).toEqual([ids.planted![0]]);
    // One dropped: one stand-in, the best-scored other report (noise states no winner).
    expect(r.standIns.map((c) => c.id)).toEqual([ids.report![1]]);
    const only = detectCoordination(selected, {
      question: QUESTION,
      lookup,
      context,
      standInIds: new Set([ids.report![2]!]),
    });
    expect(only.standIns.map((c) => c.id)).toEqual([ids.report![2]]);
    // Nothing dropped: nothing stands in.
    const clean = detectCoordination(
      [ids.report![0]!].map((id) => candidate(id, 1)),
      {
        question: QUESTION,
        lookup,
        context,
      },
    );
    expect(clean.standIns).toEqual([]);
  });

  it('judges passages from the context too: planted passages outside the selection still form the group', () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED, report: REPORTS, noise: NOISE });
    const selected = [ids.planted![0]!, ids.report![0]!].map((id, i) => candidate(id, 1 - i / 10));
    const context = [...ids.planted!.slice(1), ...ids.report!.slice(1), ...ids.noise!].map((id) => candidate(id, 0.1));
    const r = detectCoordination(selected, { question: QUESTION, lookup, context });
    expect(r.dropped.map((c) => c.id)).toEqual([ids.planted![0]]);
    expect(r.kept.map((c) => c.id)).toEqual([ids.report![0]]);
  });

  it("reads a passage's grounding as its best idf-weighted Jaccard of specific words with another document's", () => {
    // Specific words, the question's and the claimed names' taken away: {ahead} twice, {after, heavi, rain}.
    // The first two share all they have (1), the third nothing (0): the group's mean is 2/3.
    const { lookup, ids } = corpusOf({
      same: [
        'Amara Okafor won the Lakeside marathon ahead of Lena Brandt.',
        'Amara Okafor won the Lakeside marathon ahead of Lena Brandt.',
      ],
      other: ['Amara Okafor won the Lakeside marathon after heavy rain.'],
    });
    const input = [...ids.same!, ...ids.other!].map((id, i) => candidate(id, 1 - i / 10));
    const r = detectCoordination(input, { question: 'Who won the Lakeside marathon?', lookup });
    const group = r.groups.find((g) => g.text === 'Amara Okafor')!;
    expect(group.docIds).toHaveLength(3);
    expect(group.grounding).toBeCloseTo(2 / 3, 10);
  });

  it('never judges a fact that fewer than three documents state: a lone document of the library stays', () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED.slice(0, 2), noise: NOISE });
    const input = [...ids.planted!, ...ids.noise!].map((id, i) => candidate(id, 1 - i / 10));
    const r = detectCoordination(input, { question: QUESTION, lookup });
    expect(r.groups.some((g) => g.text === 'Tomas Verhoeven')).toBe(false);
    expect(r.dropped).toEqual([]);
  });

  it('leaves true reporting alone when nothing is planted', () => {
    const { lookup, ids } = corpusOf({ report: REPORTS, noise: NOISE });
    const input = [...ids.report!, ...ids.noise!].map((id, i) => candidate(id, 1 - i / 10));
    const r = detectCoordination(input, { question: QUESTION, lookup });
    expect(r.groups.find((g) => g.text === 'Amara Okafor')?.coordinated).toBe(false);
    expect(r.dropped).toEqual([]);
  });

  it('in the verify stage: the planted passages are dropped and flagged, the reports stand in and answer', async () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED, report: REPORTS, noise: NOISE });
    const selected = [...ids.planted!, ids.report![0]!].map((id, i) => candidate(id, 1 - i / 10));
    const context = [...ids.report!.slice(1), ...ids.noise!].map((id) => candidate(id, 0.1));
    const r = await verifyEvidence({ question: QUESTION, candidates: selected, lookup, context });
    // The two other reports state the kept report's winner: they take the planted passages' places.
    expect(r.kept.map((c) => c.id)).toEqual([ids.report![0], ...ids.report!.slice(1)]);
    expect(r.reinstated).toEqual(ids.report!.slice(1));
    expect(r.kept[1]!.trace.map((e) => e.reason ?? '').join(' | ')).toMatch(
      /stands in for a passage set aside as written to order/,
    );
    expect(r.flags.filter((f) => f.kind === 'coordinated_claim').map((f) => f.candidateId)).toEqual(ids.planted);
    expect(r.groups.some((g) => g.coordinated && g.text === 'Tomas Verhoeven')).toBe(true);
  });

  it('where nothing is grounded, a group that names nothing beyond the question and its value is coordinated', () => {
    const { lookup, ids } = corpusOf({ planted: PLANTED, noise: UNRELATED });
    const input = [...ids.planted!, ...ids.noise!].map((id, i) => candidate(id, 1 - i / 100));
    const r = detectCoordination(input, { question: QUESTION, lookup });
    const planted = r.groups.find((g) => g.text === 'Tomas Verhoeven')!;
    expect(planted.grounding).toBe(0);
    expect(planted.named).toBe(0);
    expect(planted.coordinated).toBe(true);
    expect(r.dropped.map((c) => c.id).sort()).toEqual([...ids.planted!].sort());
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/name nothing beyond the question and "Tomas Verhoeven"/);
    // The bound is on names: with minNamed 0 only the grounding bounds judge, and they cannot.
    const off = detectCoordination(input, { question: QUESTION, lookup }, { minNamed: 0 });
    expect(off.groups.find((g) => g.text === 'Tomas Verhoeven')!.coordinated).toBe(false);
  });

  it('where nothing is grounded, terse true reports that each name something of their own stay', () => {
    const { lookup, ids } = corpusOf({ report: TERSE, noise: UNRELATED });
    const input = [...ids.report!, ...ids.noise!].map((id, i) => candidate(id, 1 - i / 100));
    const r = detectCoordination(input, { question: QUESTION, lookup });
    const reported = r.groups.find((g) => g.text === 'Amara Okafor')!;
    expect(reported.grounding).toBe(0);
    expect(reported.named).toBeGreaterThanOrEqual(1);
    expect(reported.coordinated).toBe(false);
    expect(r.dropped).toEqual([]);
  });
});
