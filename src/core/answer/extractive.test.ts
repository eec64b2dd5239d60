import { describe, expect, it } from 'vitest';
import type { Conflict } from '../verify/conflict';
import { REDACTION_MARK } from '../verify/injection';
import { answerExtractive, answerFromPacket, isTitleLine } from './extractive';
import { decomposeQuestion } from '../select/rationales';
import { selectEvidence } from '../select/select';
import { buildCorpus, candidate } from '../select/testing';
import { source } from './testing';
import { validateAnswer } from './validate';

describe('answerExtractive', () => {
  const sources = [
    source(
      1,
      "Jul 13, 2019 ... The final was played on Centre Court. Simona Halep won the 2019 Wimbledon women's singles title, beating Serena Williams.",
    ),
    source(2, 'Simona Halep of Romania became the 2019 Wimbledon champion in under an hour.'),
    source(3, 'Who won Wimbledon in 2019? Tickets for the 2020 edition go on sale in March.'),
  ];

  it('quotes as support only passages that state the voted answer, never one that names a rival', () => {
    // realtimeqa-dev's pattern: the rival passage covers aspects the answer's passages do not
    // ("special guest", "concert film"), so without the rule it is quoted under "Beyoncé".
    const question = 'Taylor Swift welcomed which special guest and guiding light to the premiere of her concert film?';
    const a = answerExtractive({
      question,
      rationales: decomposeQuestion(question),
      sources: [
        source(1, 'Taylor Swift thanks guiding light Beyoncé for attending.'),
        source(2, 'Swift called Beyoncé her guiding light at the premiere.'),
        source(3, 'Adele appeared as the special guest of Taylor Swift at the premiere of her concert film.'),
      ],
    });
    expect(a.short).toMatchObject({ text: 'Beyoncé' });
    expect(a.sentences.length).toBeGreaterThan(1);
    expect(a.sentences.map((x) => x.citationId)).not.toContain('S3');
    expect(a.text).not.toContain('Adele');
  });

  it('inside one document, a value repeated by weaker sentences never displaces the sentence that answers', () => {
    // COVID-QA's pattern: names repeated in methods sentences outvoted the sentence that states who
    // conducted the survey. Across documents the repetition is corroboration and the vote leads.
    const question = 'Who conducted the national survey of tuberculosis in 2010?';
    const bodies = [
      'The national survey of tuberculosis prevalence in 2010 was conducted by clinicians, radiologists and nurses trained by the ministry.',
      'Zhang Wei analysed the samples. Zhang Wei wrote the report with Li Na.',
      'Li Na and Zhang Wei reviewed the tuberculosis survey data in 2011.',
    ];
    const sourcesOf = (docOf: (i: number) => string) =>
      bodies.map((b, i) => source(i + 1, b, { docId: docOf(i), chunkId: `${docOf(i)}#${i}` }));
    const one = answerExtractive({ question, rationales: decomposeQuestion(question), sources: sourcesOf(() => 'd1') });
    expect(one.sentences[0]!.text).toMatch(/^The national survey of tuberculosis prevalence in 2010 was conducted by/);
    expect(one.short).toBeNull();
    const many = answerExtractive({
      question,
      rationales: decomposeQuestion(question),
      sources: sourcesOf((i) => `d${i}`),
    });
    expect(many.short).toMatchObject({ text: 'Li Na and Zhang Wei' });
  });

  it.each([
    ['NFL Commissioners and Presidents.', true],
    ['Results and Discussion', true],
    ['First Complete Genome Sequence of a French Bovine Coronavirus Strain', true],
    ['Roger Goodell was chosen as the eighth NFL Commissioner.', false],
    ['Simona Halep won Wimbledon', false],
    ['Table 3 Baseline Characteristics', false],
    ['Mother-to-child transmission is the main cause of HIV-1 infection in children.', false],
    ['The Final Report', true],
    ['The report was final.', false],
  ] as const)('reads "%s" as a title line: %s', (line, title) => {
    expect(isTitleLine(line)).toBe(title);
  });

  it('inside one document, a date is shown with the part of the period its sentence names', () => {
    const question = 'When did the board approve the restructuring plan?';
    const a = answerExtractive({
      question,
      rationales: decomposeQuestion(question),
      sources: [source(1, 'During the fourth quarter of fiscal year 2018, the board approved the restructuring plan.')],
    });
    expect(a.short?.text).toBe('the fourth quarter of fiscal year 2018');
  });

  it('inside one document, a title line that meets the question never displaces the voted value', () => {
    const question = 'Who is the current NFL Commissioner?';
    const a = answerExtractive({
      question,
      rationales: decomposeQuestion(question),
      sources: [
        source(
          1,
          'Current NFL Commissioner and Presidents.\n\nRoger Goodell has served as the NFL Commissioner since 2006.',
        ),
      ],
    });
    expect(a.sentences[0]!.text).toMatch(/^Roger Goodell has served/);
  });

  it('answers with the cited sentence that states the value most passages agree on, and its short span', () => {
    const a = answerExtractive({ question: "Who won the women's singles Wimbledon in 2019?", sources });
    expect(a.kind).toBe('answer');
    expect(a.short).toMatchObject({ text: 'Simona Halep', kind: 'entity' });
    expect(a.sentences[0]).toMatchObject({ citationId: 'S1' });
    expect(a.sentences[0]!.text).toMatch(/^Simona Halep won/);
    expect(a.text).toMatch(/\[S1\]/);
    expect(a.votes).toMatchObject({ sources: 2 });
    // A question in the evidence is never an answer sentence.
    expect(a.text).not.toContain('Who won Wimbledon');
    expect(a.sentences.length).toBeLessThanOrEqual(3);
  });

  it('reads a section heading as context for the sentences under it, never as an answer', () => {
    const body =
      '## 2. Daily allowances\n\nMeals during business travel are covered up to EUR 60 per day within Europe and EUR 80 per day elsewhere.';
    const headings = ['Travel and Expenses Policy', '2. Daily allowances'];
    const question = 'How much is the daily meal allowance?';
    const a = answerExtractive({ question, sources: [source(1, body, { headings })] });
    expect(a.kind).toBe('answer');
    expect(a.sentences[0]!.text).toMatch(/^Meals during business travel/);
    expect(a.text).not.toMatch(/##|Daily allowances/);
    // Two amounts compete in the sentence (EUR 60 within Europe, EUR 80 elsewhere): the sentence
    // answers, no one figure does.
    expect(a.short).toBeNull();
    // A heading that matches the question better than any sentence is still no answer sentence.
    const close = answerExtractive({
      question: 'Explain the daily meal allowance.',
      sources: [
        source(1, '## Daily meal allowance\n\nMeals are covered up to 60 EUR per day.', {
          headings: ['Travel and Expenses Policy', 'Daily meal allowance'],
        }),
      ],
    });
    expect(close.sentences.map((x) => x.text)).toEqual(['Meals are covered up to 60 EUR per day.']);
    // The heading's words count (at half weight): without the trail the same sentence scores lower.
    const bare = answerExtractive({ question, sources: [source(1, body.replace(/^## .*\n\n/u, ''))] });
    expect(a.sentences[0]!.score).toBeGreaterThan(bare.sentences[0]!.score);
  });

  it('answers "who" with a role when the sentence names no one, never with the role the question asks about', () => {
    const loan = answerExtractive({
      question: 'Who must approve a longer laptop loan?',
      sources: [source(1, 'A longer loan needs the written approval of the operations manager.')],
    });
    expect(loan.short).toMatchObject({ text: 'operations manager', kind: 'entity' });
    const own = answerExtractive({
      question: 'Who is the director of the Avatar movie?',
      sources: [source(1, 'The director of the movie said the sequel is coming next year.')],
    });
    expect(own.short).toBeNull();
    // A name in the sentence answers: no role is added beside it.
    const named = answerExtractive({
      question: 'Who approved the budget?',
      sources: [source(1, 'The budget was approved by Maria Lopez after the board meeting.')],
    });
    expect(named.short).toMatchObject({ text: 'Maria Lopez' });
  });

  it('picks the value of the asked-for kind: a date for "when", money for "how much", never a dateline', () => {
    const when = answerExtractive({
      question: 'When was Splatoon 2 released?',
      sources: [source(1, 'Apr 13, 2017 ... Splatoon 2 was released on July 21, 2017 for the Nintendo Switch.')],
    });
    expect(when.short).toMatchObject({ text: 'July 21, 2017', kind: 'date' });
    const much = answerExtractive({
      question: 'How much did Google acquire YouTube for?',
      sources: [source(1, 'In 2006 Google acquired YouTube, with 65 employees, for $1.65 billion in stock.')],
    });
    expect(much.short).toMatchObject({ text: '$1.65 billion', kind: 'number' });
  });

  it("shows a date at its most specific and keeps a more specific date of the question's year", () => {
    const gpt = answerExtractive({
      question: 'When was GPT-3 released?',
      sources: [
        source(1, 'GPT-3 is a large language model released by OpenAI in 2020.'),
        source(2, 'Nov 19, 2021 ... OpenAI released GPT-3 in June 2020 through a private API.'),
      ],
    });
    expect(gpt.short).toMatchObject({ text: 'June 2020', kind: 'date' });
    expect(gpt.sentences[0]!.citationId).toBe('S2');
    const globes = answerExtractive({
      question: 'When did the Golden Globe Awards 2020 take place?',
      sources: [source(1, 'The 77th Golden Globe Awards took place on January 5, 2020 at the Beverly Hilton.')],
    });
    expect(globes.short).toMatchObject({ text: 'January 5, 2020' });
  });

  it("fills the question's slot: the value next to its predicate, not the first name in the sentence", () => {
    const a = answerExtractive({
      question: 'Who acquired WhatsApp?',
      sources: [
        source(
          1,
          'The service was created by WhatsApp Inc. of Mountain View, California, which was acquired by Facebook in February 2014.',
        ),
        source(2, 'Serena Williams lost to Bianca Andreescu. Facebook acquired WhatsApp for $19 billion.'),
      ],
    });
    expect(a.short).toMatchObject({ text: 'Facebook' });
    // A topic name made of the question's own words is not an answer; across documents the slot decides.
    const question = 'Who won the World Cup Final in 2018?';
    const final = 'On July 15, 2018, in Moscow, France won the FIFA World Cup final against Croatia.';
    const b = answerExtractive({
      question,
      sources: [source(1, final), source(2, 'France lifted the trophy for the second time.')],
    });
    expect(b.short).toMatchObject({ text: 'France' });
  });

  it('inside one document, a sentence with several names of the asked kind answers as a whole', () => {
    // Moscow, France and Croatia: the sentence settles it for a reader, no one name is picked out.
    const question = 'Who won the World Cup Final in 2018?';
    const final = 'On July 15, 2018, in Moscow, France won the FIFA World Cup final against Croatia.';
    const one = answerExtractive({ question, sources: [source(1, final)] });
    expect(one.short).toBeNull();
    expect(one.sentences[0]!.text).toBe(final);
    // Three figures in one sentence: "5" stood nearest the question's words, the answer is 136.
    const sacks = answerExtractive({
      question: 'How many career sacks did Jared Allen have?',
      sources: [
        source(
          1,
          "The line featured Jared Allen, a 5-time pro bowler who was the NFL's active career sack leader with 136, along with Kony Ealy, who had 5 sacks in just 9 starts.",
        ),
      ],
    });
    expect(sacks.short).toBeNull();
    expect(sacks.sentences[0]!.text).toContain('career sack leader with 136');
    // One value of the kind: it is the short answer.
    const alone = answerExtractive({
      question: 'Who acquired WhatsApp?',
      sources: [source(1, 'In February 2014 WhatsApp was acquired by Facebook for $19 billion.')],
    });
    expect(alone.short).toMatchObject({ text: 'Facebook' });
  });

  it('prefers the value a resolved conflict settled on, shown as the verifier found it', () => {
    const settled: Conflict = {
      id: 'C1',
      kind: 'entity',
      onQuestion: true,
      status: 'resolved',
      winner: 'sundar pichai',
      resolvedBy: 'independent_sources',
      reason: 'resolved',
      pairs: [],
      sides: [
        {
          key: 'sundar pichai',
          display: 'Sundar Pichai',
          candidateIds: [],
          corroboratingIds: [],
          support: 0.9,
          sources: 1,
          citationIds: [],
        },
      ],
    };
    const a = answerExtractive({
      question: 'Who is the CEO of Google in 2021?',
      sources: [
        source(1, 'Apr 22, 2021 ... It is a big boost for Pichai, who leads Google as its CEO since 2015.'),
        source(2, 'Apr 22, 2021 ... Ruth Porat, the CFO of Google, spoke to analysts in 2021.'),
      ],
      conflicts: [settled],
    });
    expect(a.short).toMatchObject({ text: 'Sundar Pichai' });
    expect(a.votes).toMatchObject({ settled: true });
  });

  it('states both sides of an unresolved conflict with citations and asserts neither', () => {
    const conflict: Conflict = {
      id: 'C1',
      kind: 'entity',
      onQuestion: true,
      status: 'unresolved',
      winner: null,
      resolvedBy: null,
      reason: 'unresolved',
      pairs: [['d1#0', 'd2#0']],
      sides: [
        {
          key: 'tampa florida',
          display: 'Tampa, Florida',
          candidateIds: ['d1#0'],
          corroboratingIds: [],
          support: 0,
          sources: 0,
          citationIds: ['S1'],
        },
        {
          key: 'glendale arizona',
          display: 'Glendale, Arizona',
          candidateIds: ['d2#0'],
          corroboratingIds: [],
          support: 0,
          sources: 0,
          citationIds: ['S2'],
        },
      ],
    };
    const a = answerExtractive({
      question: 'Where was Super Bowl 2021 played?',
      sources: [
        source(1, 'Super Bowl 2021 was played at Raymond James Stadium in Tampa, Florida.'),
        source(2, 'Super Bowl 2021 was played at Raymond James Stadium in Glendale, Arizona.'),
      ],
      conflicts: [conflict],
    });
    expect(a.kind).toBe('conflict');
    expect(a.text).toMatch(/"Tampa, Florida" according to \[S1\]/);
    expect(a.text).toMatch(/"Glendale, Arizona" according to \[S2\]/);
    expect(a.text).toMatch(/neither is asserted/);
    expect(a.short).toBeNull();
  });

  it('says the evidence is insufficient when no sentence matches, and skips redaction marks', () => {
    const a = answerExtractive({
      question: 'What is the parking fee?',
      sources: [source(1, `Meals cost 45 EUR. ${REDACTION_MARK}`)],
    });
    expect(a.kind).toBe('insufficient');
    const b = answerExtractive({
      question: 'What is the hotel cap per night?',
      sources: [source(1, `Hotel stays are capped at 180 EUR per night. ${REDACTION_MARK}`)],
    });
    expect(b.text).not.toContain(REDACTION_MARK);
    expect(b.short).toMatchObject({ text: '180 EUR' });
  });

  it('rejects unknown options', () => {
    expect(() => answerExtractive({ question: 'q', sources }, { topK: 3 } as never)).toThrow(/unknown option "topK"/);
  });
});

describe('answerExtractive on snippets and descriptions', () => {
  it('reads a run of one-word "sentences" as one unit, so a name meets its label', () => {
    const a = answerExtractive({
      question: 'Who was the top scorer of the 2018 tournament?',
      sources: [source(1, '2018 tournament. Match Centre. Harry Kane. Top scorer. 6. Goals. 0. Red Cards.')],
    });
    // The unit holds other names too (Match Centre, Red Cards): inside one document it answers whole.
    expect(a.short).toBeNull();
    expect(a.sentences[0]!.text).toContain('Harry Kane. Top scorer.');
  });

  it('answers a request for a description with cited sentences and no short span', () => {
    const a = answerExtractive({
      question: 'What is trace-based compilation?',
      sources: [
        source(
          1,
          'Trace-based compilation records hot loop paths at run time and compiles them to machine code. ' +
            'It was introduced by Dynamo in 2000 at Hewlett-Packard.',
        ),
      ],
    });
    expect(a.kind).toBe('answer');
    expect(a.short).toBeNull();
    expect(a.votes).toBeNull();
    expect(a.sentences[0]!.text).toMatch(/^Trace-based compilation records/);
    expect(a.text).not.toMatch(/^Dynamo|^Hewlett/);
  });
});

describe('answerFromPacket over long documents', () => {
  /** A 50-chunk filing: the asked-about rows and sentences first, then filler. */
  const filing = (lead: string[]) =>
    buildCorpus([
      {
        id: 'f',
        title: 'Acme Industries — Form 10-K',
        chunks: [...lead, ...Array.from({ length: 48 }, (_, i) => `Filler paragraph ${i} about unrelated matters.`)],
      },
    ]);
  const ask = async (question: string, lead: string[]) => {
    const c = filing(lead);
    const candidates = lead.map((_, i) => candidate(`f#${i}`, 1 - i * 0.01));
    const padded = [
      ...candidates,
      ...Array.from({ length: 20 }, (_, i) => candidate(`f#${i + lead.length}`, 0.5 - i * 0.01)),
    ];
    const packet = await selectEvidence({ question, candidates: padded, chunks: c.chunks, documents: c.documents });
    expect(packet.longDocument?.long).toBe(true);
    return answerFromPacket(packet);
  };

  it('takes no figure the generic reader found in a table row (it cannot tell the column)', async () => {
    const a = await ask('How much cash came from operations in 2020?', [
      '| Net cash provided by operating activities | $381,603 | $465,699 |',
    ]);
    expect(a.short).toBeNull();
    expect(a.table).toBeUndefined();
  });

  it('takes no number that labels a part of the document ("Note 12")', async () => {
    const a = await ask('How many debt issuances were there in 2018?', [
      'Refer to Note 12 for more detail of the debt issuances in 2018.',
    ]);
    expect(a.short).toBeNull();
  });

  it('reads a cell for an amount, never for a question asking which kind', async () => {
    const table =
      '| | June 30, 2023 | December 31, 2022 |\n| --- | --- | --- |\n| Short-term investments | 507,726 | 400,112 |';
    const amount = await ask('What is the amount of short-term investments at June 30, 2023?', [table]);
    expect(amount.table?.value).toBe('507,726');
    const kind = await ask('Which type of short-term investments was the largest at June 30, 2023?', [table]);
    expect(kind.table).toBeUndefined();
    expect(kind.short).toBeNull();
  });

  it('keeps a figure stated in a sentence', async () => {
    const a = await ask('How many employees did Acme have in 2018?', ['Acme had 93,516 employees at the end of 2018.']);
    expect(a.short?.text).toMatch(/93,516/);
  });
});

describe('answerExtractive on yes/no questions', () => {
  it('answers no when the sentence that states the question negates it, yes when it affirms it', async () => {
    const passage = source(
      1,
      'An automatic extension does not extend the time to pay your tax. Interest is charged on late payments.',
    );
    const no = answerExtractive({
      question: 'Does an automatic extension extend the time to pay your tax?',
      sources: [passage],
    });
    expect(no.short).toMatchObject({ text: 'No', kind: 'polarity' });
    expect(no.sentences[0]!.text).toMatch(/^An automatic extension does not extend/);
    const yes = answerExtractive({
      question: 'Is interest charged on late payments?',
      sources: [passage],
    });
    expect(yes.short).toMatchObject({ text: 'Yes', kind: 'polarity' });
    const validation = await validateAnswer({ answer: no.text, sources: [passage] });
    expect(validation.outcome).toBe('supported');
  });

  it('asserts neither when no sentence states the question', () => {
    const a = answerExtractive({
      question: 'Does the policy cover dental care for contractors?',
      sources: [source(1, 'The policy covers dental care for employees after probation.')],
    });
    expect(a.short).toBeNull();
  });
});

describe('answerExtractive on alternative and negated yes/no questions', () => {
  it('asserts no yes or no for an alternative question, and reads "nothing … requires" as a negation', () => {
    const alt = answerExtractive({
      question: 'Should signatures or MACs be preferred for integrity?',
      sources: [source(1, 'For integrity, signatures or MACs should be preferred, signatures in most cases.')],
    });
    expect(alt.short).toBeNull();
    const nothing = answerExtractive({
      question: 'Does section 512 require a provider to monitor its service?',
      sources: [source(1, 'Nothing in section 512 does require a provider to monitor its service.')],
    });
    expect(nothing.short).toMatchObject({ text: 'No' });
  });
});

describe('a question that asks for a part by its kind', () => {
  const question = 'Which form should you file if you cannot file your Form 1040NR return by the due date?';
  const sources = [
    source(
      1,
      'Extension of time to file. If you cannot file your return by the due date, you should file Form 4868. You must file Form 4868 by the regular due date of the return.',
    ),
    source(
      2,
      'Criminal penalties may be imposed for willful failure to file. But you must file Form 2210 because the IRS cannot figure your penalty under this method.',
    ),
  ];

  it('is answered by the label of that kind the evidence names, never the one the question names', () => {
    const a = answerExtractive({ question, sources });
    expect(a.short?.text).toBe('Form 4868');
    expect(a.sentences[0]?.text).toMatch(/you should file Form 4868/u);
  });

  it('keeps labels out of answers to questions that ask for something else', () => {
    const a = answerExtractive({
      question: 'What should you do if you cannot file your return by the due date?',
      sources,
    });
    expect(a.short?.text ?? '').not.toMatch(/Form/u);
  });
});
