import { describe, expect, it } from 'vitest';
import {
  cleanMetadataTitle,
  dateInFileName,
  filingTitle,
  nameAsPrinted,
  findDate,
  guessEffectiveDate,
  guessSourceType,
  guessStatus,
  normalizeDate,
  titleFromFileName,
} from './metadata';

describe('guessSourceType', () => {
  it.each([
    ['irs-i1040nr-2007.pdf', {}, 'government'],
    ['dmca-us-copyright-office.pdf', {}, 'government'],
    ['doj-trustee-handbook-872p.docx', {}, 'government'],
    ['notes.pdf', { author: 'United States Copyright Office' }, 'government'],
    ['tracemonkey-pldi09.pdf', {}, 'peer_reviewed'],
    ['paper.pdf', { firstPage: 'Abstract ... arXiv:2401.01234v2 [cs.CL]' }, 'peer_reviewed'],
    ['paper.pdf', { firstPage: 'Proceedings of the 2009 ACM conference' }, 'peer_reviewed'],
    ['employee-handbook.docx', {}, 'internal_policy'],
    ['travel_policy_v3.txt', {}, 'internal_policy'],
    ['my-blog-post.html', {}, 'blog'],
    ['notes.md', {}, 'unknown'],
  ] as const)('%s %o → %s', (fileName, extra, expected) => {
    expect(guessSourceType({ fileName, ...extra })).toBe(expected);
  });

  it('does not match inside words (a "policyholder" letter, "governor" bio)', () => {
    expect(guessSourceType({ fileName: 'policyholder-letter.txt' })).toBe('unknown');
    expect(guessSourceType({ fileName: 'governor-bio.txt' })).toBe('unknown');
  });
});

describe('guessStatus', () => {
  it('reads draft and superseded markers from the name or title', () => {
    expect(guessStatus({ fileName: 'policy-DRAFT-v2.docx' })).toBe('draft');
    expect(guessStatus({ fileName: 'x.pdf', title: 'Superseded: travel rules' })).toBe('superseded');
    expect(guessStatus({ fileName: 'handbook_old.pdf' })).toBe('superseded');
    expect(guessStatus({ fileName: 'archive/2019-rules.pdf' })).toBe('current'); // folders are not the name
    expect(guessStatus({ fileName: 'bold-ideas.md' })).toBe('current');
  });
});

describe('dates', () => {
  it('parses PDF dates and rejects implausible ones', () => {
    expect(normalizeDate("D:20090401163925-07'00'")).toBe('2009-04-01T16:39:25-07:00');
    expect(normalizeDate('D:20041026181009Z')).toBe('2004-10-26T18:10:09Z');
    expect(normalizeDate('D:2004')).toBe('2004-01-01T00:00:00Z');
    expect(normalizeDate('D:00000101000000Z')).toBeUndefined();
    expect(normalizeDate('D:20091341000000Z')).toBeUndefined();
    expect(normalizeDate('2023-09-22T18:38:00Z')).toBe('2023-09-22T18:38:00.000Z');
    expect(normalizeDate('not a date')).toBeUndefined();
  });

  it('finds dates in file names and text', () => {
    expect(dateInFileName('minutes-2024-03-07.pdf')).toBe('2024-03-07');
    expect(dateInFileName('scan_20231231_final.pdf')).toBe('2023-12-31');
    expect(dateInFileName('i1040nr-2007.pdf')).toBeUndefined();
    expect(dateInFileName('report-2023-02-30.pdf')).toBeUndefined();
    expect(findDate('Signed on October 28, 1998 by the President')).toBe('1998-10-28');
    expect(findDate('Pub. L. 105-304 (Oct. 28, 1998).')).toBe('1998-10-28');
    expect(findDate('valid from 1 April 2024')).toBe('2024-04-01');
    expect(findDate('no date here, 2024 alone')).toBeUndefined();
  });

  it('orders its sources: file name, an "effective" date, metadata created, first-page dates, modified', () => {
    const firstPage = 'Issued March 3, 2020.\nEffective date: 1 July 2021.';
    expect(guessEffectiveDate({ fileName: 'rules-2022-01-15.pdf', firstPage, created: '2019-01-01T00:00:00Z' })).toBe(
      '2022-01-15',
    );
    expect(guessEffectiveDate({ fileName: 'rules.pdf', firstPage, created: '2019-01-01T00:00:00Z' })).toBe(
      '2021-07-01',
    );
    expect(
      guessEffectiveDate({
        fileName: 'rules.pdf',
        firstPage: 'Issued March 3, 2020.',
        created: '2019-01-01T00:00:00Z',
      }),
    ).toBe('2019-01-01');
    expect(guessEffectiveDate({ fileName: 'rules.pdf', firstPage: 'Summary, December 1998' })).toBe('1998-12-01');
    expect(guessEffectiveDate({ fileName: 'rules.pdf', modified: '2001-10-17T18:09:26-03:00' })).toBe('2001-10-17');
    expect(guessEffectiveDate({ fileName: 'rules.pdf' })).toBeUndefined();
  });
});

describe('titles', () => {
  it('cleans metadata titles and rejects placeholders and file names', () => {
    expect(cleanMetadataTitle('Microsoft Word - Annual Report.doc')).toBeUndefined();
    expect(cleanMetadataTitle('Microsoft Word - Annual Report')).toBe('Annual Report');
    expect(cleanMetadataTitle('Untitled')).toBeUndefined();
    expect(cleanMetadataTitle('C:\\My Documents\\x')).toBeUndefined();
    expect(cleanMetadataTitle('  The   DMCA  ')).toBe('The DMCA');
  });

  it('makes a title from a file name', () => {
    expect(titleFromFileName('../shared/testdocs/good/war-and-peace_full.txt')).toBe('war-and-peace full');
    expect(titleFromFileName('README')).toBe('README');
  });
});

describe('official filings', () => {
  const COVER = [
    'UNITED STATES SECURITIES AND EXCHANGE COMMISSION',
    'Washington, D.C. 20549',
    'FORM 10-K',
    '[X] ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    'For the fiscal year ended December 31, 2018',
    'Commission File No. 001-10362',
    'NORTHWIND TRADING CORPORATION',
    '(Exact name of Registrant as specified in its charter)',
  ];

  it('titles a filing by registrant, form and period', () => {
    expect(filingTitle(COVER)).toBe('Northwind Trading Corporation — Form 10-K, fiscal year ended December 31, 2018');
    const quarterly = [
      'FORM 10-Q',
      'For the quarterly period ended June 30, 2023',
      '(Exact name of registrant as specified in its charter)',
      'Contoso Inc.',
    ];
    expect(filingTitle(quarterly)).toBe('Contoso Inc. — Form 10-Q, quarterly period ended June 30, 2023');
  });

  it('names the registrant as the filing prints it in its text, not in the cover page’s capitals', () => {
    const cover = ['FORM 10-K', '(Exact name of registrant as specified in its charter)', 'PEPSICO, INC.'];
    const text = 'PepsiCo, Inc. was incorporated in 1919. PEPSICO, INC. AND SUBSIDIARIES. PepsiCo, Inc. makes snacks.';
    expect(filingTitle(cover, text)).toBe('PepsiCo, Inc. — Form 10-K');
    expect(nameAsPrinted('MGM RESORTS INTERNATIONAL', 'MGM Resorts\nInternational and its subsidiaries')).toBe(
      'MGM Resorts International',
    );
    // Never printed otherwise: title case, short capitals kept.
    expect(nameAsPrinted('MGM RESORTS INTERNATIONAL', 'NOTHING HERE')).toBe('MGM Resorts International');
    expect(nameAsPrinted('3M COMPANY', '3M Company (3M) is a diversified technology company. 3M COMPANY')).toBe(
      '3M Company',
    );
    // A word that merely contains the name is no mention of it.
    expect(nameAsPrinted('ACME CORP', 'Acme Corporation is another firm.')).toBe('Acme Corp');
  });

  it('gives no filing title to other documents', () => {
    expect(filingTitle(['Annual Leave Policy', 'Employees accrue two days of leave per month.'])).toBeUndefined();
    expect(filingTitle(['FORM 10-K', 'a form without a registrant line'])).toBeUndefined();
  });

  it('drops the SEC letterhead as a metadata title', () => {
    expect(cleanMetadataTitle('UNITED STATES SECURITIES AND EXCHANGE COMMISSION')).toBeUndefined();
    expect(cleanMetadataTitle('Form 10-K')).toBeUndefined();
    expect(cleanMetadataTitle('3M Company Form 10-K 2018')).toBe('3M Company Form 10-K 2018');
  });

  it('guesses official_filing from the first page or the name, government stays government', () => {
    expect(guessSourceType({ fileName: 'nw.pdf', firstPage: COVER.join('\n') })).toBe('official_filing');
    expect(guessSourceType({ fileName: 'NORTHWIND_2018_10K.pdf' })).toBe('official_filing');
    expect(guessSourceType({ fileName: 'a.pdf', title: 'Contoso Annual Report 2022' })).toBe('official_filing');
    expect(
      guessSourceType({
        fileName: 'i1040nr.pdf',
        firstPage: 'Department of the Treasury Internal Revenue Service Form 1040NR',
      }),
    ).toBe('government');
  });
});
