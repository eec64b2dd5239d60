/**
 * The document-QA grader, and two questions over the IRS three-column instructions. The targets
 * over the whole financebench dev half (38 filings, 60 questions) are in docqa.quality.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { describeShared, sharedPath } from '../node/shared-data';
import { ask } from '../worker/ask';
import { Engine } from '../worker/engine';
import { SettingsHost } from '../worker/settings';
import { figuresOf, numbersIn, releasedAnswerProblem, statesFigure } from './docqa-grade';
import { ingestInto, keywordsOnlyEmbedder } from './docqa';

describe('the document-QA grader', () => {
  it('reads figures with separators, signs and scales', () => {
    expect(numbersIn('(1,577) and $303 million, 24.5%')).toEqual([1577, 303, 24.5]);
    expect(figuresOf('$1577.00 in FY2018')).toEqual([1577]);
    expect(statesFigure('Accounts payable $302,578 (in thousands)', 303)).toBe(true);
    expect(statesFigure('Purchases of PP&E (1,577)', 1577)).toBe(true);
    expect(statesFigure('$110.8 million', 382)).toBe(false);
    expect(statesFigure('in 2018', 2018)).toBe(false);
  });

  it('names released answers that are no answer', () => {
    expect(releasedAnswerProblem('Continued [S1]')).toBe('page furniture');
    expect(releasedAnswerProblem('Table of Contents [S1]')).toBe('page furniture');
    expect(releasedAnswerProblem('Consolidated Statement of Income [S1]')).toBe('a heading or label');
    expect(releasedAnswerProblem('Provision for Write [S1]')).toBe('a heading or label');
    expect(releasedAnswerProblem('Settlements [S1]')).toBe('fewer than three words and no figure');
    expect(releasedAnswerProblem('$302,578 (in thousands) [S2]')).toBeNull();
    expect(releasedAnswerProblem('The plan was frozen for new entrants in 2019. [S3]')).toBeNull();
  });
});

describeShared('three-column instructions: the IRS 1040-NR', ['testdocs/good/irs-i1040nr-2007.pdf'], () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = new Engine({ vectors: false });
    engine.setEmbedder(await keywordsOnlyEmbedder());
    await ingestInto(engine, 'irs', sharedPath('testdocs', 'good', 'irs-i1040nr-2007.pdf'));
  }, 120_000);
  const askIt = (q: string) => ask({ engine, settings: new SettingsHost(() => null) }, q);
  const cited = (r: Awaited<ReturnType<typeof askIt>>) =>
    r.sources.filter((s) => r.answer.sentences.some((x) => x.citationIds.includes(s.citationId)));

  it('the due date without wages is June 16, 2008, cited on page 4, or an honest refusal', async () => {
    const r = await askIt(
      'When is a 2007 Form 1040NR due if I did not receive wages subject to U.S. income tax withholding?',
    );
    if (r.outcome === 'supported' || r.outcome === 'partial') {
      expect(r.answer.text).toMatch(/June 16, 2008/);
      expect(r.answer.short?.text ?? '').not.toMatch(/April 15/);
      expect(cited(r).some((s) => s.page === 4)).toBe(true);
    } else expect(r.outcome).toBe('abstain');
  });

  it('the extension form is Form 4868, or an honest refusal — never a heading', async () => {
    const r = await askIt('Which form do I file to get an extension of time to file Form 1040NR?');
    if (r.outcome === 'supported' || r.outcome === 'partial') {
      expect(r.answer.text).toMatch(/4868/);
      expect(releasedAnswerProblem(r.answer.short?.text ?? r.answer.text)).toBeNull();
    } else expect(r.outcome).toBe('abstain');
  });
});
