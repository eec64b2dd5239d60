import { describe, expect, it } from 'vitest';
import { FIELD_EQUIPMENT_POLICY } from '../../../test/fixtures/field-equipment';
import { MARATHON_NOISE, MARATHON_PLANTED, MARATHON_QUESTION, MARATHON_REPORTS } from '../../../test/fixtures/marathon';
import { asksForValue, factoidFloor } from './factoid-floor';
import { selectEvidence } from './select';
import { buildCorpus, candidate, type FixtureDoc } from './testing';

/** One document per text (`<role><i>`), ranked in the given order with a steep drop after the first. */
function ranked(texts: Record<string, readonly string[]>) {
  const docs: FixtureDoc[] = Object.entries(texts).flatMap(([role, list]) =>
    list.map((text, i) => ({ id: `${role}${i}`, chunks: [text] })),
  );
  const corpus = buildCorpus(docs);
  // The first passage far ahead, the rest close together: the elbow falls after one.
  const candidates = docs.map((d, i) => candidate(`${d.id}#0`, i === 0 ? 1 : 0.4 - i * 0.01));
  return { candidates, lookup: { chunks: corpus.chunks, documents: corpus.documents } };
}

const UNRELATED = [
  'The museum reopened its west wing after a long renovation of the glass roof.',
  'Farmers expect a smaller apple harvest because of the late frost.',
  'A new ferry timetable adds two evening crossings on weekdays.',
  'Volunteers planted oak saplings along the canal path.',
];

describe('asksForValue', () => {
  it.each([
    ['Who won the Lakeside marathon this spring?', true],
    ['How many days per week may staff work remotely?', true],
    ['When was the bridge reopened?', true],
    ['Elon Musk told advertisers fleeing his platform to do what?', true],
    ['A tree toppled over in gusty winds this week. Where did this occur?', true],
    ['Is the bridge open on Sundays?', false],
    ['Why did the bridge close?', false],
    // A claim to check, whatever words it holds ("cost" makes answerTypeOf read a number).
    ['The cost of the bridge rose by ten percent.', false],
  ])('%s → %s', (question, expected) => {
    expect(asksForValue(question)).toBe(expected);
  });
});

describe('factoidFloor', () => {
  it('keeps five when several documents state an answer to the question', () => {
    const { candidates, lookup } = ranked({ report: MARATHON_REPORTS, noise: MARATHON_NOISE });
    const f = factoidFloor(MARATHON_QUESTION, candidates, lookup);
    expect(f).toMatchObject({ minKeep: 5, documents: 3 });
    expect(f.reason).toMatch(/3 documents among the first 7 passages state an answer/);
  });

  it('counts planted passages as answering documents too: the comparison is what exposes them', () => {
    const { candidates, lookup } = ranked({ planted: MARATHON_PLANTED, report: MARATHON_REPORTS.slice(0, 1) });
    expect(factoidFloor(MARATHON_QUESTION, candidates, lookup)).toMatchObject({ minKeep: 5, documents: 6 });
  });

  it('keeps the cut for a fact one document of the library states, and for a question asking no value', () => {
    const { candidates, lookup } = ranked({ policy: [FIELD_EQUIPMENT_POLICY], noise: UNRELATED });
    const f = factoidFloor('For how many calendar days may staff borrow a field laptop?', candidates, lookup);
    expect(f).toMatchObject({ minKeep: null, documents: 1 });
    expect(f.reason).toMatch(/one document .* states an answer: nothing to compare/);
    const report = ranked({ report: MARATHON_REPORTS, noise: MARATHON_NOISE });
    expect(factoidFloor('Why did Lena Brandt fade?', report.candidates, report.lookup).minKeep).toBeNull();
  });

  it('reads only the first `window` candidates and needs `minDocuments` of them', () => {
    const { candidates, lookup } = ranked({ report: MARATHON_REPORTS, noise: MARATHON_NOISE });
    expect(factoidFloor(MARATHON_QUESTION, candidates, lookup, { window: 1 }).documents).toBe(1);
    expect(factoidFloor(MARATHON_QUESTION, candidates, lookup, { minDocuments: 4 }).minKeep).toBeNull();
    expect(() => factoidFloor(MARATHON_QUESTION, candidates, lookup, { minKeep: 0 })).toThrow(/minKeep/);
  });
});

describe('the floor in selection', () => {
  it('the cutoff keeps five where the elbow kept one, so the reports corroborate each other', async () => {
    const { candidates, lookup } = ranked({ report: MARATHON_REPORTS, noise: MARATHON_NOISE });
    const input = { question: MARATHON_QUESTION, candidates, ...lookup };
    const on = await selectEvidence(input);
    const off = await selectEvidence(input, { factoidFloor: null });
    expect(off.cutoff.position).toBe(1);
    expect(on.cutoff.position).toBe(5);
    expect(on.factoidFloor).toMatchObject({ minKeep: 5, documents: 3 });
    expect(off.factoidFloor).toBeNull();
    expect(new Set(on.sources.filter((s) => s.docId.startsWith('report')).map((s) => s.docId)).size).toBe(3);
  });

  it('stays within the user’s upper bound', async () => {
    const { candidates, lookup } = ranked({ report: MARATHON_REPORTS, noise: MARATHON_NOISE });
    const p = await selectEvidence(
      { question: MARATHON_QUESTION, candidates, ...lookup },
      { cutoff: { maxKeep: 3 }, maxEvidence: 3 },
    );
    expect(p.cutoff.position).toBe(3);
  });
});
