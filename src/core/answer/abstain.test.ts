import { describe, expect, it } from 'vitest';
import type { AbstentionModel, AbstentionSignals } from './abstain';
import {
  documentMargin,
  ABSTENTION_FEATURES,
  DEFAULT_ABSTENTION_OPTIONS,
  MONOTONE_FEATURES,
  KIND_FEATURES,
  abstentionSignals,
  decideAbstention,
  pCorrect,
  questionKindOf,
  ruleOf,
  specificityOf,
} from './abstain';
import type { Answer } from './extractive';
import { answerFromPacket } from './extractive';
import { asksForComputation } from './computation';
import { selectEvidence } from '../select/select';
import { buildCorpus, candidate } from '../select/testing';

const base: AbstentionSignals = {
  answerScore: 1.5,
  topScore: 0.6,
  margin: 0.1,
  agreement: null,
  independentSources: 3,
  conflict: false,
  flagged: 0,
  coverage: 1,
  typed: true,
  voteSources: 2,
  voteShare: 0.6,
  missingEntities: [],
};

describe('decideAbstention', () => {
  it('says a factoid refusal is for no value of the asked kind when the evidence covers the question', () => {
    // "What did the harbour authority inspect?" → "the northern breakwater": no name, date or number.
    const untyped = { ...base, typed: false, specificity: 0, voteSources: 0, voteShare: 0, spanCoverage: 0 };
    expect(decideAbstention(untyped)).toMatchObject({ abstain: true, reason: 'untyped' });
    // With part of the question uncovered, that gap is the reason.
    expect(decideAbstention({ ...untyped, coverage: 0.5 }).reason).not.toBe('untyped');
  });

  it('applies the rules in order: conflict, insufficient, missing premise', () => {
    expect(decideAbstention({ ...base, conflict: true, answerScore: 0 })).toMatchObject({
      abstain: true,
      reason: 'conflict',
    });
    expect(decideAbstention({ ...base, answerScore: 0 })).toMatchObject({ abstain: true, reason: 'insufficient' });
    const d = decideAbstention({ ...base, missingEntities: ['Acme Corp'] });
    expect(d).toMatchObject({ abstain: true, reason: 'missing_premise', pCorrect: null });
    expect(d.suggestion).toMatch(/Add the document/);
  });

  it('abstains below the threshold of the fitted model and says which signal was weakest', () => {
    const model: AbstentionModel = {
      mean: Object.fromEntries(ABSTENTION_FEATURES.map((f) => [f, 0])) as AbstentionModel['mean'],
      sd: Object.fromEntries(ABSTENTION_FEATURES.map((f) => [f, 1])) as AbstentionModel['sd'],
      weights: {
        ...(Object.fromEntries(ABSTENTION_FEATURES.map((f) => [f, 0])) as AbstentionModel['weights']),
        voteSources: 2,
      },
      bias: -3,
    };
    // One passage states the value and that is what the model holds against it.
    expect(decideAbstention({ ...base, voteSources: 1 }, { factoid: { model, threshold: 0.35 } })).toMatchObject({
      abstain: true,
      reason: 'uncorroborated',
    });
    expect(decideAbstention({ ...base, voteSources: 0 }, { factoid: { model, threshold: 0.35 } })).toMatchObject({
      abstain: true,
      reason: 'low_scores',
    });
    expect(decideAbstention({ ...base, voteSources: 3 }, { factoid: { model, threshold: 0.35 } })).toMatchObject({
      abstain: false,
      reason: 'none',
    });
    expect(
      decideAbstention({ ...base, voteSources: 1, coverage: -5 }, { factoid: { model, threshold: 0.35 } }).reason,
    ).toBe('uncovered');
    expect(() => decideAbstention(base, { cutoff: 1 } as never)).toThrow(/unknown option "cutoff"/);
  });

  it('fitted model: more passages agreeing on the answer never lowers the probability it is correct', () => {
    const m = DEFAULT_ABSTENTION_OPTIONS.factoid.model;
    expect(m.weights.voteSources).toBeGreaterThan(0);
    for (let k = 0; k < 5; k++)
      expect(pCorrect({ ...base, voteSources: k + 1 }, m)).toBeGreaterThanOrEqual(
        pCorrect({ ...base, voteSources: k }, m),
      );
  });
});

describe('question kinds', () => {
  it('sends questions for a name, date or number to the factoid model, the rest to the descriptive one', () => {
    expect(questionKindOf('Who won Wimbledon in 2019?')).toBe('factoid');
    expect(questionKindOf('When was Splatoon 2 released?')).toBe('factoid');
    expect(questionKindOf('What is the hotel cap per night?')).toBe('factoid');
    expect(questionKindOf('What is trace-based compilation?')).toBe('descriptive');
    expect(questionKindOf('Is sick leave paid?')).toBe('descriptive');
    // A statement is a claim to check, even when it mentions a rate.
    expect(questionKindOf('The infection rate in the UK is 1 in 5 million.')).toBe('descriptive');
  });

  it('applies the missing-premise rule to factoids only; a description reads the share of names found', () => {
    const desc: AbstentionSignals = { ...base, questionKind: 'descriptive', typed: false, voteSources: 0 };
    expect(ruleOf({ ...base, missingEntities: ['Th2'], entities: 3 })).toBe('missing_premise');
    expect(ruleOf({ ...desc, missingEntities: ['Th2'], entities: 3 })).toBeNull();
    expect(ruleOf({ ...desc, conflict: true })).toBe('conflict');
    expect(ruleOf({ ...desc, answerScore: 0 })).toBe('insufficient');
    const m = DEFAULT_ABSTENTION_OPTIONS.descriptive.model;
    expect(pCorrect({ ...desc, missingEntities: [], entities: 3 }, m)).toBeGreaterThanOrEqual(
      pCorrect({ ...desc, missingEntities: ['Th2', 'SLE', 'IL-4'], entities: 3 }, m),
    );
  });

  it('decides a well-covered description with no short answer by the descriptive model, not the factoid one', () => {
    const desc: AbstentionSignals = {
      ...base,
      questionKind: 'descriptive',
      typed: false,
      voteSources: 0,
      voteShare: 0,
      specificity: 0,
      spanCoverage: 1,
      agreement: 0.6,
    };
    const d = decideAbstention(desc);
    expect(d).toMatchObject({ abstain: false, reason: 'none' });
    expect(d.pCorrect).toBeCloseTo(pCorrect(desc, DEFAULT_ABSTENTION_OPTIONS.descriptive.model), 10);
    // The factoid model would have abstained: it expects a short answer that passages agree on.
    expect(decideAbstention({ ...desc, questionKind: 'factoid' }).abstain).toBe(true);
  });
});

describe('fitted model', () => {
  it('reads only its kind’s features', () => {
    for (const kind of ['factoid', 'descriptive'] as const) {
      const m = DEFAULT_ABSTENTION_OPTIONS[kind].model;
      for (const f of ABSTENTION_FEATURES)
        if (!KIND_FEATURES[kind].includes(f)) expect(m.weights[f], `${kind} ${f}`).toBe(0);
      for (const f of ABSTENTION_FEATURES) expect(m.weights[f]).toBeGreaterThanOrEqual(0);
    }
  });

  it('is monotone: no weight is negative, so more evidence never lowers the probability', () => {
    const m = DEFAULT_ABSTENTION_OPTIONS.factoid.model;
    for (const f of ABSTENTION_FEATURES) {
      expect(MONOTONE_FEATURES.has(f)).toBe(true);
      expect(m.weights[f]).toBeGreaterThanOrEqual(0);
    }
    // A settled conflict and a complete date both raise it.
    expect(pCorrect({ ...base, settled: true }, m)).toBeGreaterThan(pCorrect({ ...base, settled: false }, m));
    expect(pCorrect({ ...base, specificity: 1 }, m)).toBeGreaterThan(pCorrect({ ...base, specificity: 0.5 }, m));
  });
});

describe('specificityOf', () => {
  const answer = (text: string, kind: 'date' | 'entity' | 'number'): Answer => ({
    kind: 'answer',
    text,
    sentences: [],
    short: { text, kind, citationId: 'S1' },
    conflict: null,
    answerer: 'extractive',
    votes: null,
  });
  it('scores how completely a short answer states its kind', () => {
    expect(specificityOf(answer('May 29, 2020', 'date'))).toBe(1);
    expect(specificityOf(answer('June 2020', 'date'))).toBe(0.75);
    expect(specificityOf(answer('2020', 'date'))).toBe(0.5);
    expect(specificityOf(answer('November 12', 'date'))).toBe(0.5);
    expect(specificityOf(answer('Simona Halep', 'entity'))).toBe(1);
    expect(specificityOf({ ...answer('x', 'entity'), short: null })).toBe(0);
  });
});

describe('abstentionSignals', () => {
  it('reads coverage, sources and missing entities off a real packet', async () => {
    const c = buildCorpus([
      { id: 'a', sourceType: 'government', chunks: ['Hotel stays are capped at 180 EUR per night for all staff.'] },
      { id: 'b', sourceType: 'government', chunks: ['The hotel cap of 180 EUR per night applies in every city.'] },
    ]);
    const candidates = [
      { ...candidate('a#0', 0.03), scores: { fused: 0.03, bm25: 4 }, ranks: { bm25: 1 } },
      { ...candidate('b#0', 0.02), scores: { fused: 0.02, bm25: 3 }, ranks: { bm25: 2 } },
    ];
    const question = 'What is the hotel cap per night at Globex Corporation?';
    const packet = await selectEvidence(
      { question, candidates, chunks: c.chunks, documents: c.documents },
      { verify: {}, cutoff: { minKeep: 2 } },
    );
    const answer = answerFromPacket(packet);
    const s = abstentionSignals({ packet, answer, candidates });
    expect(s.independentSources).toBe(2);
    expect(s.voteSources).toBe(2);
    expect(s.margin).toBeCloseTo(1 / 3, 10);
    expect(s.missingEntities).toEqual(['Globex Corporation']);
    expect(decideAbstention(s).reason).toBe('missing_premise');
  });
});

describe('long documents: computations and fiscal periods', () => {
  it('refuses a computed answer unless a table cell gave it, in short documents too', () => {
    const long = { ...base, longDocument: true, computation: true };
    expect(decideAbstention(long)).toMatchObject({ abstain: true, reason: 'computation', pCorrect: null });
    expect(decideAbstention(long).suggestion).toMatch(/each period and measure/);
    expect(decideAbstention({ ...long, tableCell: true }).reason).not.toBe('computation');
    expect(decideAbstention({ ...long, longDocument: false }).reason).toBe('computation');
  });

  it('asksForComputation: derived figures and yes/no trend or measure judgments', () => {
    expect(asksForComputation('What is the FY2019 - FY2020 revenue growth rate?')).toBe(true);
    expect(asksForComputation('DPO is defined as: 365 * (average accounts payable) / COGS. What is it?')).toBe(true);
    expect(asksForComputation('Has Verizon increased its debt between 2021 and 2022?')).toBe(true);
    expect(asksForComputation('Does Corning have positive working capital?')).toBe(true);
    expect(asksForComputation('What is the year end FY2018 amount of accounts payable?')).toBe(false);
    expect(asksForComputation('Is the office open on Sundays?')).toBe(false);
    // A rate or a share a sentence may state is no calculation.
    expect(asksForComputation('What is the mileage rate for private cars?')).toBe(false);
    expect(asksForComputation('What percentage of staff work remotely?')).toBe(false);
    expect(asksForComputation('How much has the effective tax rate changed between 2021 and 2022?')).toBe(true);
    expect(asksForComputation('What is the difference in net sales between 2018 and 2019?')).toBe(true);
    expect(asksForComputation('How much higher was revenue in 2019 than in 2018?')).toBe(true);
    expect(asksForComputation('What was the increase in revenue from 2018 to 2019?')).toBe(true);
    expect(asksForComputation('How many years did servicing fees exceed $3,000 thousand?')).toBe(true);
    expect(asksForComputation('How many years of data does the report cover?')).toBe(false);
    // Asked by its form for a description, a calculation word is the subject, not what is asked.
    expect(asksForComputation('What does adjusted gross margin represent?')).toBe(false);
    expect(asksForComputation('What was the increase in free cash flow from 2018 to 2019 driven by?')).toBe(false);
    expect(asksForComputation('In 2019, why did the gross margin decrease?')).toBe(false);
    expect(asksForComputation('How were operating segments defined as?')).toBe(false);
  });

  it('reads "FY2018", "FY2019 - FY2020" and "USD" as mentioned where the years are, never as missing names', async () => {
    const c = buildCorpus([
      {
        id: 'f',
        title: 'Acme Industries — Form 10-K, fiscal year ended December 31, 2020',
        chunks: ['Total revenue was $9,497 million in 2020 and $4,713 million in 2019, reported by Acme Industries.'],
      },
    ]);
    const candidates = [{ ...candidate('f#0', 0.03), scores: { fused: 0.03, bm25: 4 }, ranks: { bm25: 1 } }];
    for (const [question, missing] of [
      ['What was total revenue in FY2020 for Acme Industries in USD millions?', []],
      ['What was total revenue over FY2019 - FY2020 for Acme Industries?', []],
      ['What was total revenue in 2020 for Globex?', ['Globex']],
    ] as const) {
      const packet = await selectEvidence(
        { question, candidates, chunks: c.chunks, documents: c.documents },
        { verify: {} },
      );
      const s = abstentionSignals({ packet, answer: answerFromPacket(packet), candidates });
      expect(s.missingEntities, question).toEqual(missing);
    }
  });
});

describe('documentMargin', () => {
  const corpus = buildCorpus([
    {
      id: 'v3',
      sourceType: 'internal_policy',
      status: 'current',
      chunks: ['Staff may work remotely up to three days per week.', 'Remote days need a manager’s approval.'],
    },
    {
      id: 'v2',
      sourceType: 'internal_policy',
      status: 'superseded',
      chunks: ['Staff may work remotely up to two days per week.'],
    },
  ]);
  const question = 'How many days per week may staff work remotely?';
  const retrieved = [
    { ...candidate('v3#0', 1), scores: { fused: 1 }, ranks: { bm25: 1 } },
    { ...candidate('v2#0', 0.98), scores: { fused: 0.98 }, ranks: { bm25: 2 } },
    { ...candidate('v3#1', 0.9), scores: { fused: 0.9 }, ranks: { bm25: 3 } },
  ];

  it('discounts a superseded copy by its status factor and ignores chunks of the same document', async () => {
    const packet = await selectEvidence({
      question,
      candidates: retrieved,
      chunks: corpus.chunks,
      documents: corpus.documents,
    });
    const factor = packet.candidates.find((c) => c.id === 'v2#0')!.trace.find((e) => e.stage === 'priors')!.detail!
      .statusFactor as number;
    expect(factor).toBeLessThan(1);
    expect(documentMargin(packet, retrieved)).toBeCloseTo(1 - 0.98 * factor, 10);
    // The fused scores alone would put the two versions 2% apart.
    expect(documentMargin({ candidates: [] }, retrieved)).toBeCloseTo(0.02, 10);
  });

  it('is 1 with one document retrieved and 0 with nothing above 0', () => {
    const one = retrieved.filter((c) => c.docId === 'v3');
    expect(documentMargin({ candidates: [] }, one)).toBe(1);
    expect(documentMargin({ candidates: [] }, [])).toBe(0);
    expect(documentMargin({ candidates: [] }, [{ ...one[0]!, scores: { fused: 0 } }])).toBe(0);
  });

  it('does not count a copy of the top passage in another file as a competitor', async () => {
    // The same scanned page added twice: dedup keeps one copy; the other is no rival document.
    const page = 'The engineers recommend replacing forty blocks before the winter storms.';
    const c = buildCorpus([
      { id: 'scan-a', sourceType: 'unknown', status: 'current', chunks: [page] },
      { id: 'scan-b', sourceType: 'unknown', status: 'current', chunks: [page] },
      { id: 'policy', sourceType: 'internal_policy', status: 'current', chunks: ['Staff may work remotely.'] },
    ]);
    const pool = [
      { ...candidate('scan-a#0', 1), scores: { fused: 1 }, ranks: { bm25: 1 } },
      { ...candidate('scan-b#0', 1), scores: { fused: 1 }, ranks: { bm25: 2 } },
      { ...candidate('policy#0', 0.2), scores: { fused: 0.2 }, ranks: { bm25: 3 } },
    ];
    const packet = await selectEvidence({
      question: 'How many blocks do the engineers recommend replacing?',
      candidates: pool,
      chunks: c.chunks,
      documents: c.documents,
    });
    const dropped = packet.candidates.find((x) => x.trace.some((e) => e.detail?.duplicateOf !== undefined));
    expect(dropped?.docId).toMatch(/^scan-/);
    expect(documentMargin(packet, pool)).toBeGreaterThan(0.5);
    // Read without the trail, the copy ties with the top.
    expect(documentMargin({ candidates: [] }, pool)).toBe(0);
  });
});
