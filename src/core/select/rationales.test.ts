import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { stemmer } from 'stemmer';
import {
  decomposeQuestion,
  heuristicRationales,
  makeRationale,
  pairRationales,
  termOf,
  termsOf,
  type Rationale,
} from './rationales';
import { buildCorpus, candidate } from './testing';

// The real Porter stemmer, wrapped so a test can count how often pairing stems.
vi.mock(import('stemmer'), async (importOriginal) => {
  const real = await importOriginal();
  return { stemmer: vi.fn(real.stemmer) };
});

const texts = (q: string, kind?: Rationale['kind']) =>
  decomposeQuestion(q)
    .filter((r) => kind === undefined || r.kind === kind)
    .map((r) => r.text);

describe('decomposeQuestion', () => {
  it.each([
    ['What is the difference between type 1 and type 2 diabetes?', ['type 1', 'type 2 diabetes']],
    ['ibuprofen vs paracetamol for back pain', ['ibuprofen', 'paracetamol']],
    ['Compare the Berlin office with the Paris office', ['Berlin office', 'Paris office']],
    ['Is aspirin more effective than ibuprofen for headaches?', ['aspirin', 'ibuprofen']],
    ['Are SSRIs safer than SNRIs in pregnancy?', ['SSRIs', 'SNRIs']],
    ['How does remote work compare to office work?', ['remote work', 'office work']],
    ['Sick pay for contractors compared with employees', ['contractors', 'employees']],
  ])('finds the two sides of a comparison: %s', (q, sides) => {
    const rs = decomposeQuestion(q);
    const cmp = rs.filter((r) => r.kind === 'comparison');
    expect(cmp.map((r) => r.text)).toEqual(sides);
    // Both sides share a group, so a UI can show them as a pair.
    expect(new Set(cmp.map((r) => r.group)).size).toBe(1);
    expect(cmp[0]!.group).toBeDefined();
  });

  it('does not read quantities and idioms as comparisons', () => {
    expect(texts('Can I take leave for more than 5 days?', 'comparison')).toEqual([]);
    expect(texts('Should I call rather than email?', 'comparison')).toEqual([]);
    expect(texts('Is the fee higher than 20 euros?', 'comparison')).toEqual([]);
  });

  it('finds named entities: capitalised runs with connectors, acronyms, inner capitals', () => {
    expect(texts('What is the Bank of England interest rate?', 'entity')).toEqual(['Bank of England']);
    expect(texts('Does the GDPR apply to mRNA trial data held by Acme Health?', 'entity')).toEqual([
      'GDPR',
      'mRNA',
      'Acme Health',
    ]);
    expect(texts('How effective are COVID-19 vaccines?', 'entity')).toEqual(['COVID-19']);
    // A capitalised first word is just the start of a sentence.
    expect(texts('Aspirin reduces the risk of stroke.', 'entity')).toEqual([]);
  });

  it('finds numbers with units and dates', () => {
    const rs = decomposeQuestion(
      'What did the policy say on 12 March 2021 about 5 mg doses and a 5-year term costing $300?',
    );
    expect(rs.filter((r) => r.kind === 'date').map((r) => r.text)).toEqual(['12 March 2021']);
    expect(rs.filter((r) => r.kind === 'number').map((r) => r.text)).toEqual(['5 mg', '5-year', '$300']);
    expect(rs.find((r) => r.text === '5 mg')!.terms).toEqual(['5', 'mg']);
    expect(decomposeQuestion('Is 1,000 mg too much?').find((r) => r.kind === 'number')!.terms).toEqual(['1000', 'mg']);
    expect(texts('Which rules applied in 2019?', 'date')).toEqual(['2019']);
  });

  it('takes key phrases from runs of non-stopwords, at most three words each', () => {
    const rs = decomposeQuestion('How many days of sick leave do part-time employees get?');
    expect(rs.map((r) => [r.kind, r.text])).toEqual([
      ['phrase', 'days'],
      ['phrase', 'sick leave'],
      ['phrase', 'part-time employees'],
    ]);
    const long = decomposeQuestion('annual leave carry over rules apply');
    expect(long.every((r) => r.terms.length <= 3)).toBe(true);
    expect(long.map((r) => r.text)).toEqual(['annual leave carry', 'rules apply']);
    expect(decomposeQuestion('hospital acquired pneumonia mortality risk factors').map((r) => r.text)).toEqual([
      'hospital acquired pneumonia',
      'mortality risk factors',
    ]);
  });

  it('numbers rationales R1… in question order, with unique term sets and a cap', () => {
    const rs = decomposeQuestion(
      'GDPR fines for GDPR breaches by Acme in Germany, France, Spain, Italy, Poland and Austria',
      { maxRationales: 4 },
    );
    expect(rs.map((r) => r.id)).toEqual(['R1', 'R2', 'R3', 'R4']);
    expect(rs.filter((r) => r.text === 'GDPR')).toHaveLength(1);
    const keys = rs.map((r) => [...r.terms].sort().join(' '));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('returns nothing for an empty or stopword-only question', () => {
    expect(decomposeQuestion('')).toEqual([]);
    expect(decomposeQuestion('What is it?')).toEqual([]);
  });

  it('builds generator rationales from plain text', () => {
    expect(makeRationale('R1', 'Which employees are eligible?')).toEqual({
      id: 'R1',
      text: 'Which employees are eligible?',
      kind: 'generated',
      terms: [termOf('employees'), termOf('eligible')],
    });
  });

  it('is available as a RationaleSource', async () => {
    expect(await heuristicRationales.rationales('ibuprofen vs paracetamol')).toEqual(
      decomposeQuestion('ibuprofen vs paracetamol'),
    );
  });
});

describe('terms', () => {
  it('match across inflections (Porter stems) and number formatting', () => {
    expect(termOf('policies')).toBe(termOf('policy'));
    expect(termOf('Employees')).toBe(termOf('employee'));
    expect(termOf('1,000')).toBe('1000');
    expect(termOf('2.5')).toBe('2.5');
    expect(termsOf('the employer’s policies')).toEqual([termOf('employer'), termOf('policies')]);
  });

  it('gives a plain lower-case word (the fast path) the term its capitalised spelling gets', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,12}$/), (w) => {
        const upper = w[0]!.toUpperCase() + w.slice(1);
        expect(termOf(w)).toBe(termOf(upper));
        expect(termOf(w)).toBe(termOf(`${upper}'s`));
      }),
    );
  });
});

describe('pairRationales', () => {
  const corpus = buildCorpus([
    { id: 'a', title: 'Leave', chunks: ['Each employee gets ten days of paid sick leave.'] },
    { id: 'b', title: 'Pay', chunks: ['Part-time employees are paid pro rata.'] },
    { id: 'c', title: 'Travel', chunks: ['Mileage is reimbursed.'] },
  ]);
  const lookup = { chunks: corpus.chunks, documents: corpus.documents };
  const pool = [candidate('a#0', 0.9), candidate('b#0', 0.8), candidate('c#0', 0.7)];

  it('pairs each rationale with the candidates that cover it, and reports what nothing covers', () => {
    const rs = decomposeQuestion('How many days of sick leave do part-time employees get under the GDPR?');
    const p = pairRationales(rs, pool, lookup);
    const byText = (t: string) => rs.find((r) => r.text === t)!.id;
    expect(p.best.get(byText('sick leave'))).toEqual(['a#0']);
    expect(p.best.get(byText('part-time employees'))).toEqual(['b#0']);
    expect(p.best.get(byText('GDPR'))).toEqual([]);
    expect(p.covers.get('a#0')).toContain(byText('days'));
    expect(p.covers.get('c#0')).toBeUndefined();
    // Partial matches are recorded but do not cover: "part-time employees" is 1/3 in a#0.
    expect(p.matches.get(byText('part-time employees'))!.get('a#0')).toBeCloseTo(1 / 3, 12);
  });

  it('counts a rationale covered by embedding similarity when vectors are given', () => {
    const r: Rationale = {
      id: 'R1',
      text: 'remuneration',
      kind: 'phrase',
      terms: ['remuner'],
      vector: Float32Array.from([1, 0]),
    };
    const vecs = new Map([
      ['b#0', Float32Array.from([0.95, Math.sqrt(1 - 0.95 ** 2)])],
      ['c#0', Float32Array.from([0, 1])],
    ]);
    const p = pairRationales([r], pool, { ...lookup, vectorOf: (id) => vecs.get(id) });
    expect(p.best.get('R1')).toEqual(['b#0']); // (0.95 − 0.5)/0.5 = 0.9 ≥ 0.6
    const lexicalOnly = pairRationales([r], pool, lookup);
    expect(lexicalOnly.best.get('R1')).toEqual([]);
  });

  it('stems each word once: pairing the same candidates again (next stage, next query) stems nothing', () => {
    // Words no other test uses, so the first pairing finds none of them derived yet.
    const fresh = buildCorpus([
      { id: 'x', title: 'Quokkas', chunks: ['Wombats burrowed beneath eucalyptuses while quokkas grinned.'] },
      { id: 'y', title: 'Numbats', chunks: ['Numbats devoured termites; bilbies dozed.'] },
    ]);
    const freshLookup = { chunks: fresh.chunks, documents: fresh.documents };
    const freshPool = [candidate('x#0', 0.9), candidate('y#0', 0.8)];
    const rs = decomposeQuestion('Which wombats burrowed?');
    const stem = vi.mocked(stemmer);
    stem.mockClear();
    const first = pairRationales(rs, freshPool, freshLookup);
    expect(stem.mock.calls.map(([w]) => w)).toEqual(expect.arrayContaining(['eucalyptuses', 'termites', 'bilbies']));
    stem.mockClear();
    const second = pairRationales(rs, freshPool, freshLookup);
    expect(stem).not.toHaveBeenCalled();
    expect(second.best).toEqual(first.best);
    expect(first.best.get(rs[0]!.id)).toEqual(['x#0']);
  });

  it('uses the document title and heading trail as well as the text', () => {
    const p = pairRationales([{ id: 'R1', text: 'travel', kind: 'phrase', terms: termsOf('travel') }], pool, lookup);
    expect(p.best.get('R1')).toEqual(['c#0']);
  });
});
