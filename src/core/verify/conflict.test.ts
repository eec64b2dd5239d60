import { describe, expect, it } from 'vitest';
import type { SourceType } from '../types';
import { buildCorpus, candidate, deepFreeze } from '../select/testing';
import { detectLineage } from './lineage';
import { citeConflicts, detectConflicts } from './conflict';

const TRUE =
  'The game was played on February 7, 2021, at Raymond James Stadium in Tampa, Florida, the home stadium of the Buccaneers.';
const FAKE = TRUE.replace('Tampa, Florida', 'Glendale, Arizona');
const question = 'Where was Super Bowl 2021 played?';

function setup(types: Record<string, SourceType>, texts: Record<string, string>) {
  const corpus = buildCorpus(
    Object.keys(texts).map((id) => ({ id, sourceType: types[id] ?? 'unknown', chunks: [texts[id]!] })),
  );
  return { chunks: corpus.chunks, documents: corpus.documents };
}

describe('detectConflicts', () => {
  it('finds the edited span of near-identical passages and resolves it by credibility', () => {
    const lookup = setup({ gov: 'government', ai: 'ai_generated' }, { gov: TRUE, ai: FAKE });
    const cands = deepFreeze([candidate('ai#0', 0.9), candidate('gov#0', 0.8)]);
    const lin = detectLineage(cands, { lookup });
    const r = detectConflicts(lin.kept, { question, lookup, clusterOf: lin.clusterOf });
    expect(r.conflicts).toHaveLength(1);
    const c = r.conflicts[0]!;
    expect(c.sides.map((s) => s.display).sort()).toEqual(['Glendale, Arizona', 'Tampa, Florida']);
    expect(c).toMatchObject({
      status: 'resolved',
      winner: 'tampa florida',
      resolvedBy: 'credibility',
      onQuestion: true,
    });
    expect(r.kept.map((x) => x.id)).toEqual(['gov#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/states "Glendale, Arizona" .*edited copy of gov#0/);
  });

  it('finds the edited name in scraped fields ("Netherlands. Runner-up.") read as one unit', () => {
    const page = (team: string): string =>
      `2010 FIFA World Cup South Africa. Back to FIFA+ · Match Centre · Teams. ${team}. Runner-up. 11. Goals. 24. Yellow Cards.`;
    const lookup = setup({ a: 'government', b: 'government' }, { a: page('Netherlands'), b: page('Argentina') });
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question: 'Who was the runner-up of the 2010 World Cup?',
      lookup,
    });
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0]!.sides.map((s) => s.display).sort()).toEqual(['Argentina', 'Netherlands']);
    expect(r.conflicts[0]).toMatchObject({ status: 'unresolved', onQuestion: true });
  });

  it('leaves comparable sources unresolved and keeps both sides, reinstating one from the context', () => {
    const lookup = setup({ a: 'government', b: 'government' }, { a: TRUE, b: FAKE });
    const r = detectConflicts([candidate('b#0', 0.9)], { question, lookup, context: [candidate('a#0', 0.5)] });
    const c = r.conflicts[0]!;
    expect(c.status).toBe('unresolved');
    expect(c.winner).toBeNull();
    expect(r.reinstated).toEqual(['a#0']);
    expect(r.kept.map((x) => x.id)).toEqual(['b#0', 'a#0']);
    expect(r.kept[1]!.trace.at(-1)!.reason).toMatch(/^reinstated/);
    const cited = citeConflicts(r.conflicts, [
      { candidateId: 'b#0', citationId: 'S1' },
      { candidateId: 'a#0', citationId: 'S2' },
    ]);
    expect(cited[0]!.sides.map((s) => s.citationIds.join()).sort()).toEqual(['S1', 'S2']);
  });

  it('lets independent corroboration decide between comparable versions', () => {
    const lookup = setup(
      {},
      {
        a: TRUE,
        b: FAKE,
        n1: 'Jan 22, 2021 ... Super Bowl LV will be played in Tampa Bay at the home of the Buccaneers.',
        n2: 'Tampa hotels were full for the big game week.',
      },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question,
      lookup,
      context: [candidate('n1#0', 0.3), candidate('n2#0', 0.2)],
      clusterOf: new Map([
        ['a#0', 'L1'],
        ['b#0', 'L1'],
      ]),
    });
    const c = r.conflicts[0]!;
    expect(c.status).toBe('resolved');
    expect(c.winner).toBe('tampa florida');
    expect([...c.sides[0]!.corroboratingIds].sort()).toEqual(['n1#0', 'n2#0']);
    expect(r.kept.map((x) => x.id)).toEqual(['a#0']);
  });

  it('prefers the internally consistent version when an edit left a trace of the original', () => {
    // Same source type, so credibility cannot decide; the edited copy still says "Barty" elsewhere.
    const orig =
      "Jul 10, 2021 ... World No1 Ashleigh Barty beat Karolina Pliskova in three sets to win the women's singles title at Wimbledon. Barty won 6-3, 6-7, 6-3 in the final.";
    const edit = orig.replace('Ashleigh Barty', 'Simona Halep');
    const lookup = setup({ a: 'government', b: 'government' }, { a: orig, b: edit });
    const cands = deepFreeze([candidate('b#0', 0.9), candidate('a#0', 0.8)]);
    const lin = detectLineage(cands, { lookup });
    const r = detectConflicts(lin.kept, {
      question: "Who won the women's singles Wimbledon in 2021?",
      lookup,
      clusterOf: lin.clusterOf,
    });
    expect(r.conflicts[0]).toMatchObject({ status: 'resolved', winner: 'ashleigh barty', resolvedBy: 'consistency' });
    expect(r.kept.map((x) => x.id)).toEqual(['a#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(
      /edited copy of a#0 \(its text still mentions "Barty" elsewhere\)/,
    );
    // Without the trace the two versions stay comparable.
    const clean = orig.replace('Barty won', 'She won');
    const lookup2 = setup({}, { a: clean, b: clean.replace('Ashleigh Barty', 'Simona Halep') });
    const r2 = detectConflicts([candidate('b#0', 0.9), candidate('a#0', 0.8)], {
      question: "Who won the women's singles Wimbledon in 2021?",
      lookup: lookup2,
      clusterOf: new Map([
        ['a#0', 'L1'],
        ['b#0', 'L1'],
      ]),
    });
    expect(r2.conflicts[0]!.status).toBe('unresolved');
  });

  it('counts a lowercase word or a different numbered title as no trace and no corroboration', () => {
    const orig =
      'Apr 25, 2021 ... Soul won the Academy Award for animated feature. The movie tells the story of Joe Gardner.';
    const edit = orig.replace('Soul won', 'Toy Story 2 won');
    const lookup = setup(
      {},
      {
        a: orig,
        b: edit,
        n: 'Up and Toy Story 3 are the first two animated films nominated for best picture in 2021.',
      },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question: 'What movie won the Oscar for Best Animated Film in 2021?',
      lookup,
      context: [candidate('n#0', 0.3)],
      clusterOf: new Map([
        ['a#0', 'L1'],
        ['b#0', 'L1'],
      ]),
    });
    expect(r.conflicts[0]!.status).toBe('unresolved');
    expect(r.conflicts[0]!.sides.every((s) => s.corroboratingIds.length === 0)).toBe(true);
  });

  it('corroborates sentence by sentence, ignores passages about another year, and accepts rounded figures', () => {
    const a = 'View maps and results for the 2020 US election. Joe Biden wins election to be the 46th US President.';
    const b = a.replace('Joe Biden', 'Donald Trump');
    const clusterOf = new Map([
      ['a#0', 'L1'],
      ['b#0', 'L1'],
    ]);
    const question = 'Who won the US Presidential Election 2020?';
    const lookup = setup(
      {},
      {
        a,
        b,
        // Names both in one sentence, Biden alone in another: corroborates Biden.
        n1: 'Nov 3, 2020 ... Biden Jr. was elected the 46th president. Mr. Biden defeated President Trump in Pennsylvania.',
        // About 2021 only: says nothing about the 2020 election.
        n2: 'Mar 15, 2021 ... Officials assess that Russian leaders preferred that President Trump win reelection.',
      },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question,
      lookup,
      context: [candidate('n1#0', 0.3), candidate('n2#0', 0.2)],
      clusterOf,
    });
    const c = r.conflicts[0]!;
    expect(c).toMatchObject({ status: 'resolved', winner: 'joe biden' });
    expect(c.sides[0]!.corroboratingIds).toEqual(['n1#0']);
    expect(c.sides[1]!.corroboratingIds).toEqual([]);

    const t =
      'Jul 22, 2020 ... Tesla reports its quarterly results. Revenue: $6.04 billion vs. $5.37 billion expected.';
    const lookup2 = setup(
      {},
      {
        a: t,
        b: t.replace('$6.04 billion', '$1.04 billion'),
        n: 'Jul 22, 2020 ... The automaker announced that it made $6 billion in revenue in Q2 2020.',
      },
    );
    const r2 = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8)], {
      question: "What was Tesla's revenue in Q2 2020?",
      lookup: lookup2,
      context: [candidate('n#0', 0.3)],
      clusterOf,
    });
    expect(r2.conflicts[0]).toMatchObject({ status: 'resolved', winner: '6040000000usd' });
  });

  it('reads a changed date next to added words as a date disagreement', () => {
    const lookup = setup(
      {},
      {
        a: 'The game was released on December 1, 2017 in Japan, North America, Europe and Australia.',
        b: 'The game was released on November 8, 2021 in Japan, North America, Europe and Australia.',
        c: 'The game was released on September 14, 2018.',
      },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8), candidate('c#0', 0.7)], {
      question: 'When was Xenoblade Chronicles 2 released?',
      lookup,
    });
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0]!.kind).toBe('date');
    expect(r.conflicts[0]!.sides.map((s) => s.display).sort()).toEqual([
      'December 1, 2017',
      'November 8, 2021',
      'September 14, 2018',
    ]);
  });

  it('does not let a cluster of low-credibility copies outvote one credible source', () => {
    const lookup = setup(
      { gov: 'government', ai1: 'ai_generated', ai2: 'ai_generated', ai3: 'ai_generated' },
      { gov: TRUE, ai1: FAKE, ai2: FAKE, ai3: FAKE },
    );
    const cands = ['ai1#0', 'ai2#0', 'ai3#0', 'gov#0'].map((id, i) => candidate(id, 1 - i / 10));
    const lin = detectLineage(cands, { lookup }, { dropReplicas: false });
    const r = detectConflicts(lin.kept, { question, lookup, clusterOf: lin.clusterOf });
    expect(r.conflicts[0]!.winner).toBe('tampa florida');
    expect(r.kept.map((x) => x.id)).toEqual(['gov#0']);
  });

  it('prefers the current version over a superseded one, unless the question asks about earlier versions', () => {
    const corpus = buildCorpus([
      {
        id: 'v2',
        sourceType: 'government',
        effectiveDate: '2021-01-01',
        chunks: ['Employees get 10 days of paid sick leave per calendar year.'],
      },
      {
        id: 'v1',
        sourceType: 'government',
        status: 'superseded',
        effectiveDate: '2015-01-01',
        chunks: ['Employees get 7 days of paid sick leave per calendar year.'],
      },
    ]);
    const lookup = { chunks: corpus.chunks, documents: corpus.documents };
    const cands = [candidate('v1#0', 0.9), candidate('v2#0', 0.8)];
    const clusterOf = new Map([
      ['v1#0', 'L1'],
      ['v2#0', 'L1'],
    ]);
    const now = detectConflicts(cands, { question: 'How many days of sick leave?', lookup, clusterOf });
    expect(now.conflicts[0]).toMatchObject({ winner: '10day', resolvedBy: 'status' });
    const then = detectConflicts(cands, {
      question: 'How many days of sick leave?',
      lookup,
      clusterOf,
      asksEarlier: true,
    });
    expect(then.conflicts[0]).toMatchObject({ winner: '7day', resolvedBy: 'recency' });
  });

  it('lets no passage about another subject side with a value, and reads no section number as a value', () => {
    // The demo library's two policy versions, numbered sections and all, beside an equipment
    // policy that happens to state "two days" about something else.
    const corpus = buildCorpus([
      {
        id: 'v3',
        sourceType: 'internal_policy',
        chunks: [
          '## 2. Eligibility and limits\n\nEmployees who have completed their probation period may work remotely for up to **three days per\nweek**. Teams agree their office days with their manager.',
        ],
      },
      {
        id: 'v2',
        sourceType: 'internal_policy',
        status: 'superseded',
        chunks: [
          "## 2. Eligibility and limits\n\nEmployees who have completed their probation period may work remotely for up to **two days per\nweek**, with their manager's approval.",
        ],
      },
      {
        id: 'phones',
        sourceType: 'unknown',
        chunks: [
          "## Satellite phones\n\nSatellite phones are issued only for trips without mobile coverage, and must be returned within two days of the trip's end.",
        ],
      },
    ]);
    const lookup = { chunks: corpus.chunks, documents: corpus.documents };
    const question = 'How many days per week may staff work remotely?';
    const context = [candidate('v2#0', 0.98), candidate('phones#0', 0.5)];
    // The two versions are one text (lineage): the current one speaks for it.
    const lin = detectLineage([candidate('v3#0', 1), ...context], { lookup });
    expect(lin.clusterOf.get('v2#0')).toBe(lin.clusterOf.get('v3#0'));
    const r = detectConflicts([candidate('v3#0', 1)], { question, lookup, context, clusterOf: lin.clusterOf });
    expect(r.conflicts).toHaveLength(1);
    const c = r.conflicts[0]!;
    expect(c).toMatchObject({ status: 'resolved', winner: '3day', resolvedBy: 'status' });
    expect(c.sides.map((x) => [x.key, x.candidateIds])).toEqual([
      ['3day', ['v3#0']],
      ['2day', ['v2#0']],
    ]);
    expect(r.kept.map((x) => x.id)).toEqual(['v3#0']);
  });

  it('finds a negation flip, and no conflict between compatible values', () => {
    const lookup = setup(
      {},
      {
        a: 'Unused sick leave is paid out when employment ends under the current rules.',
        b: 'Unused sick leave is not paid out when employment ends under the current rules.',
        c: 'Splatoon 2 was released for the Nintendo Switch in July 2017 worldwide.',
        d: 'Splatoon 2 was released for the Nintendo Switch on July 21, 2017 worldwide.',
      },
    );
    const neg = detectConflicts([candidate('a#0', 1), candidate('b#0', 0.9)], {
      question: 'Is unused sick leave paid out?',
      lookup,
    });
    expect(neg.conflicts[0]).toMatchObject({ kind: 'polarity', status: 'unresolved', onQuestion: true });
    const compat = detectConflicts([candidate('c#0', 1), candidate('d#0', 0.9)], {
      question: 'When was Splatoon 2 released?',
      lookup,
    });
    expect(compat.conflicts).toEqual([]);
  });

  it('respects maxKeep when it reinstates a side, dropping the weakest uninvolved candidate', () => {
    const lookup = setup({}, { a: TRUE, b: FAKE, x: 'Tickets for the game sold out within hours of release.' });
    const r = detectConflicts(
      [candidate('b#0', 0.9), candidate('x#0', 0.1)],
      {
        question,
        lookup,
        context: [candidate('a#0', 0.5)],
      },
      { maxKeep: 2 },
    );
    expect(r.kept.map((c) => c.id).sort()).toEqual(['a#0', 'b#0']);
    expect(r.dropped.map((c) => c.id)).toEqual(['x#0']);
  });
});

describe('detectConflicts and the question’s own premise', () => {
  // realtimeqa-dev #13: passages that place the tunnel "in the northern Himalayas" (the question's
  // words) lost a conflict to "India" and were dropped, leaving too little to answer "how many days".
  const question =
    'All 41 workers trapped in a collapsed tunnel in the northern Himalayas were rescued after how many days?';
  const said = (where: string): string =>
    `All 41 workers trapped in a collapsed tunnel in ${where} were rescued on Tuesday after 17 days underground.`;

  it('never drops a passage for stating a value the question itself states', () => {
    const lookup = setup(
      { a: 'government', b: 'established_news', c: 'blog' },
      { a: said('India'), b: said('India'), c: said('the northern Himalayas') },
    );
    const cands = [candidate('a#0', 0.9), candidate('b#0', 0.8), candidate('c#0', 0.7)];
    const r = detectConflicts(cands, { question, lookup });
    expect(r.conflicts.map((c) => c.sides.map((s) => s.display).sort())).toContainEqual([
      'India',
      'the northern Himalayas',
    ]);
    expect(r.kept.map((x) => x.id)).toContain('c#0');
    expect(r.dropped).toHaveLength(0);
  });

  it('still drops the losing side when the question does not state it', () => {
    const lookup = setup(
      { a: 'government', b: 'established_news', c: 'blog' },
      { a: said('India'), b: said('India'), c: said('Nepal') },
    );
    const r = detectConflicts([candidate('a#0', 0.9), candidate('b#0', 0.8), candidate('c#0', 0.7)], {
      question,
      lookup,
    });
    expect(r.dropped.map((x) => x.id)).toEqual(['c#0']);
  });
});

describe('detectConflicts and versions of one document', () => {
  // Issue 28: once unrelated filings crowded the pool, the current remote-work policy and its
  // superseded version were no longer linked by lineage, and "two days" (v2.1, superseded) stood as a
  // rival to "three days" (v3.0): "the sources conflict". Their titles say they are one document.
  const versions = (v2Type: SourceType, v2Title: string) =>
    buildCorpus([
      {
        id: 'v3',
        title: 'Remote Work Policy v3.0',
        sourceType: 'internal_policy',
        effectiveDate: '2025-03-01',
        chunks: ['Staff who have passed probation may work remotely for up to three days per week.'],
      },
      {
        id: 'v2',
        title: v2Title,
        sourceType: v2Type,
        status: 'superseded',
        effectiveDate: '2022-06-01',
        chunks: [
          'Staff who have passed probation may work remotely for up to two days per week, subject to approval by a manager.',
        ],
      },
    ]);
  const question = 'How many days per week can I work remotely?';
  // Each passage its own source (no lineage link), and the superseded one weighs 0.90 × 0.5 = 0.45
  // against the current one's 0.85: without the titles, no side reaches twice the other's support.
  const ask = (v2Title: string, asksEarlier = false) => {
    const corpus = versions('government', v2Title);
    return detectConflicts([candidate('v3#0', 1), candidate('v2#0', 0.9)], {
      question,
      lookup: { chunks: corpus.chunks, documents: corpus.documents },
      asksEarlier,
    });
  };

  it('lets the current version speak for a superseded version with its title', () => {
    const r = ask('Remote Work Policy v2.1');
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0]).toMatchObject({ status: 'resolved', winner: '3day', resolvedBy: 'status' });
    expect(r.conflicts[0]!.sides.map((s) => [s.key, s.support, s.sources])).toEqual([
      ['3day', 0.85, 1],
      ['2day', 0, 0],
    ]);
    expect(r.kept.map((c) => c.id)).toEqual(['v3#0']);
    expect(r.dropped[0]!.trace.at(-1)!.reason).toMatch(/an edited copy of v3#0 \(current version\)/);
  });

  it('keeps a superseded document of another title as a rival (at its reduced weight)', () => {
    const r = ask('Field Office Handbook');
    expect(r.conflicts[0]).toMatchObject({ status: 'unresolved' });
    expect(r.conflicts[0]!.sides.map((s) => s.support)).toEqual([0.85, 0.45]);
  });

  it('lets the effective dates pick the earlier version when the question asks about it', () => {
    const r = ask('Remote Work Policy v2.1', true);
    expect(r.conflicts[0]).toMatchObject({ status: 'resolved', winner: '2day', resolvedBy: 'recency' });
  });
});
