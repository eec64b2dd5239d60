/**
 * Every document in ../shared/testdocs (see its README and MANIFEST.tsv) through the real
 * pipeline: parse, chunk with the USE lite tokenizer, map pages. good/ must ingest with sensible
 * chunks (the scanned PDF must fail clearly); bad/ must end in its specific error or a safe
 * partial result. Behaviour only: how long each file takes is measured by `npm run bench --
 * --testdocs` (src/cli/bench-testdocs.ts), not asserted here; a hang still fails at the suite's
 * test timeout (vitest.config.ts).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvidentError } from '../core/errors';
import { ingestBytes, loadUseTokenizer, MAX_CHUNK_TOKENS, type IngestedFile } from '../cli/ingest';
import type { UseTokenizer } from '../models/use/tokenizer';
import { describeShared, sharedPath } from '../node/shared-data';
import type { ParseOptions } from '.';

/** Heap after any one file: a ZIP bomb that got inflated, or a runaway copy, blows far past this. */
const MAX_HEAP_BYTES = 1.5 * 1024 ** 3;

let tokenizer: UseTokenizer;

function read(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(sharedPath('testdocs', rel)));
}

async function ingest(rel: string, options: Omit<ParseOptions, 'fileName'> = {}): Promise<IngestedFile> {
  const result = await ingestBytes(read(rel), rel, (t) => tokenizer.count(t), options);
  checkInvariants(result);
  expect(process.memoryUsage().heapUsed).toBeLessThan(MAX_HEAP_BYTES);
  return result;
}

async function failure(rel: string, options: Omit<ParseOptions, 'fileName'> = {}): Promise<EvidentError> {
  try {
    await ingestBytes(read(rel), rel, (t) => tokenizer.count(t), options);
  } catch (err) {
    expect(process.memoryUsage().heapUsed).toBeLessThan(MAX_HEAP_BYTES);
    return err as EvidentError;
  }
  throw new Error(`${rel} was expected to fail`);
}

/** A control character other than tab and LF. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) return true;
  }
  return false;
}

/** What holds for every ingested document, whatever its format. */
function checkInvariants({ parsed, chunks }: IngestedFile): void {
  expect(parsed.text.trim().length).toBeGreaterThan(0);
  expect(chunks.length).toBeGreaterThan(0);
  expect(hasControl(parsed.text)).toBe(false);
  const headings = new Set(parsed.headings);
  let previousPage = 0;
  for (const c of chunks) {
    expect(c.text).toBe(parsed.text.slice(c.start, c.end));
    expect(c.tokens).toBeLessThanOrEqual(MAX_CHUNK_TOKENS);
    for (const h of c.headings) expect(headings.has(h), h).toBe(true);
    if (parsed.pages) {
      expect(c.page).toBeGreaterThanOrEqual(previousPage);
      expect(c.page).toBeLessThanOrEqual(parsed.pages.length);
      previousPage = c.page as number;
    } else {
      expect(c.page).toBeUndefined();
    }
  }
  if (parsed.pages) {
    for (const [i, p] of parsed.pages.entries()) {
      expect(p.page).toBe(i + 1);
      expect(p.start).toBeLessThanOrEqual(p.end);
      if (i > 0) expect(p.start).toBeGreaterThanOrEqual(parsed.pages[i - 1]!.end);
    }
    expect(parsed.pages.at(-1)!.end).toBeLessThanOrEqual(parsed.text.length);
  }
}

const chunkWith = (r: IngestedFile, s: string) => r.chunks.find((c) => c.text.includes(s));

describeShared('ingestion of ../shared/testdocs', 'testdocs', () => {
  beforeAll(async () => {
    tokenizer = await loadUseTokenizer();
  });

  describe('good/', () => {
    it('category-level-headings-lists.docx: heading levels and nested lists', async () => {
      const r = await ingest('good/category-level-headings-lists.docx');
      expect(r.parsed.format).toBe('docx');
      expect(r.parsed.headings).toEqual(['A Heading 1', 'A Heading 2', 'Another Heading 1']);
      expect(r.parsed.text).toContain(
        '- A top level list item\n  - Next level\n  - Same\n- Second top-level list item',
      );
      expect(chunkWith(r, 'pistol and ball')?.headings).toEqual(['A Heading 1', 'A Heading 2']);
    });

    it('dmca-us-copyright-office.pdf: owner-password-only PDF opens without a prompt, 18 pages', async () => {
      const r = await ingest('good/dmca-us-copyright-office.pdf');
      expect(r.parsed.pages).toHaveLength(18);
      expect(r.parsed.title).toBe('The Digital Millennium Copyright Act of 1998');
      expect(r.parsed.headings).toContain('INTRODUCTION');
      expect(r.parsed.metadata.sourceTypeGuess).toBe('government');
      expect(r.parsed.text.replace(/\s/g, '').length).toBeGreaterThan(30_000);
      expect(chunkWith(r, 'signed into law')?.page).toBe(1);
      expect(r.chunks.at(-1)!.page).toBeGreaterThanOrEqual(17);
    });

    it('docx-tables-nested.docx: tables become rows, the nested one flattened into its cell', async () => {
      const r = await ingest('good/docx-tables-nested.docx');
      expect(r.parsed.text).toContain('| Header Col 1 | Header Col 2 |\n| Lorem ipsum | A link example |');
      expect(r.parsed.text.split('\n').filter((l) => l.startsWith('| ')).length).toBeGreaterThanOrEqual(8);
      expect(r.parsed.text).toMatch(/\| d \| e, f; g&t, h \| i \|/);
    });

    it('doj-trustee-handbook-872p.docx: a long handbook with hundreds of headings', async () => {
      const r = await ingest('good/doj-trustee-handbook-872p.docx');
      expect(r.parsed.headings.length).toBeGreaterThan(250);
      expect(r.parsed.headings[0]).toBe('CHAPTER 1 – INTRODUCTION');
      expect(r.parsed.text.length).toBeGreaterThan(700_000);
      expect(r.chunks.length).toBeGreaterThan(1000);
      expect(r.parsed.metadata.sourceTypeGuess).toBe('government');
      // Only the front matter before "CHAPTER 1" has no heading trail.
      expect(r.chunks.filter((c) => c.headings.length > 0).length / r.chunks.length).toBeGreaterThan(0.95);
    });

    it('fr-olap-french-paper.pdf: accents and ligatures, section headings', async () => {
      const r = await ingest('good/fr-olap-french-paper.pdf');
      expect(r.parsed.pages).toHaveLength(12);
      expect(r.parsed.title).toBe('Résumés et interrogations de logs de requêtes OLAP');
      expect(r.parsed.headings).toEqual(expect.arrayContaining(['1 Introduction', '3.1 Définitions préliminaires']));
      expect(r.parsed.text).not.toMatch(/[ﬁﬂ]/); // ligatures normalized
    });

    it('freeculture-lessig.pdf: a 352-page book with chapters and pages on every chunk', async () => {
      const r = await ingest('good/freeculture-lessig.pdf');
      expect(r.parsed.pages).toHaveLength(352);
      expect(r.parsed.text.length).toBeGreaterThan(500_000);
      expect(r.parsed.headings).toEqual(
        expect.arrayContaining(['CHAPTER ONE: Creators', 'CHAPTER FOURTEEN: Eldred II']),
      );
      expect(chunkWith(r, 'In 1928, a cartoon character was born')?.page).toBe(35);
      expect(r.chunks.at(-1)!.page).toBeGreaterThan(340);
    });

    it('irs-i1040nr-2007.pdf: a 50-page three-column government form guide', async () => {
      const r = await ingest('good/irs-i1040nr-2007.pdf');
      expect(r.parsed.pages).toHaveLength(50);
      expect(r.parsed.metadata.sourceTypeGuess).toBe('government');
      expect(r.parsed.text).toContain('Nonresident Alien');
      expect(r.parsed.headings.length).toBeGreaterThan(5);
      // Three columns read one after another: "When To File" (page 4, middle column) reads as
      // the page does, each due date in its own sentence, under its own heading.
      const flat = (t: string): string => t.replace(/\s+/g, ' ');
      const april = r.chunks.find((c) => flat(c.text).includes('is due by April 15, 2008.'));
      const june = r.chunks.find((c) => flat(c.text).includes('is due by June 16, 2008.'));
      expect(april?.page).toBe(4);
      expect(april?.headings).toContain('When To File');
      expect(flat(april!.text)).toContain(
        'If you were an employee and received wages subject to U.S. income tax withholding, file Form 1040NR by the 15th day of the 4th month after your tax year ends. A return for the 2007 calendar year is due by April 15, 2008.',
      );
      expect(flat(june!.text)).toContain(
        'If you did not receive wages as an employee subject to U.S. income tax withholding, file Form 1040NR by the 15th day of the 6th month after your tax year ends. A return for the 2007 calendar year is due by June 16, 2008.',
      );
      expect(june?.headings).toContain('When To File');
      const page4 = flat(
        r.chunks
          .filter((c) => c.page === 4)
          .map((c) => c.text)
          .join(' '),
      );
      expect(page4).toContain('If you cannot file your return by the due date, you should file Form 4868.');
      // The interleaving the stream order gave: the middle column beside the right one.
      expect(page4).not.toContain('If you were an employee The private delivery service');
      expect(page4).not.toMatch(/employee\s+\S+\s+delivery service/);
    });

    it('isw-article-with-scripts.html: the article text, none of its 16 scripts', async () => {
      const r = await ingest('good/isw-article-with-scripts.html');
      expect(r.parsed.title).toMatch(/^Russian Offensive Campaign Assessment, December 13/);
      expect(r.parsed.text).toContain('Belarusian forces remain unlikely to attack Ukraine');
      expect(r.parsed.text).not.toMatch(/<script|function\s*\(|jQuery|Drupal\.settings|googletagmanager/);
      expect(r.parsed.metadata.effectiveDateGuess).toBe('2022-12-13');
    });

    it('jo-miyazawa-japanese.pdf: Japanese text through the CMaps', async () => {
      const r = await ingest('good/jo-miyazawa-japanese.pdf');
      expect(r.parsed.text).toContain('わたくしといふ現象は');
      expect(r.parsed.text).toContain('宮澤賢治');
      expect(r.parsed.text.replace(/\s/g, '').length).toBeGreaterThan(800);
      expect(r.parsed.warnings.map((w) => w.code)).not.toContain('pdf_cmap_unavailable');
    });

    it('jo-miyazawa-japanese.pdf without CMaps: the loss is reported, not silent', async () => {
      const r = await ingestBytes(read('good/jo-miyazawa-japanese.pdf'), 'jo.pdf', (t) => tokenizer.count(t), {
        cMapUrl: 'file:///nonexistent/cmaps/',
      }).catch((e: EvidentError) => e);
      // Without CMaps pdf.js yields no text: either no text at all, or text with the warning.
      if ('code' in r) expect(r.code).toBe('pdf_no_text');
      else expect(r.parsed.warnings.map((w) => w.code)).toContain('pdf_cmap_unavailable');
    });

    it('mammoth-README.md: about 54 headings', async () => {
      const r = await ingest('good/mammoth-README.md');
      expect(r.parsed.format).toBe('markdown');
      expect(r.parsed.headings.length).toBeGreaterThanOrEqual(50);
      expect(r.parsed.title).toBe('Mammoth .docx to HTML converter');
    });

    it('mammoth-footnotes.docx: footnotes as an endnote list, without back-link arrows', async () => {
      const r = await ingest('good/mammoth-footnotes.docx');
      expect(r.parsed.text).toContain('1. A tachyon walks into a bar.');
      expect(r.parsed.text).not.toContain('↑');
    });

    it('owasp-rest-security-cheatsheet.md: headings and pipe tables', async () => {
      const r = await ingest('good/owasp-rest-security-cheatsheet.md');
      expect(r.parsed.headings).toEqual(expect.arrayContaining(['REST Security Cheat Sheet', 'JWT', 'API Keys']));
      expect(r.parsed.text).toMatch(/^\|.*\|$/m);
    });

    it('scanned-no-text-layer.pdf: a clear "no extractable text" error, not an empty success', async () => {
      const err = await failure('good/scanned-no-text-layer.pdf');
      expect(err.code).toBe('pdf_no_text');
      expect(err.message).toContain('no extractable text (scanned?)');
    });

    it('simple-heading-bullets.docx: heading and list', async () => {
      const r = await ingest('good/simple-heading-bullets.docx');
      expect(r.parsed.headings).toEqual(['These are a few of my favorite things:']);
      expect(r.parsed.text).toContain('- Hockey');
    });

    it('tracemonkey-pldi09.pdf: two-column paper with numbered section headings', async () => {
      const r = await ingest('good/tracemonkey-pldi09.pdf');
      expect(r.parsed.pages).toHaveLength(14);
      expect(r.parsed.title).toBe('Trace-based Just-in-Time Type Specialization for Dynamic Languages');
      expect(r.parsed.headings).toEqual(
        expect.arrayContaining(['Abstract', '1. Introduction', '10. Future Work', 'References']),
      );
      expect(r.parsed.metadata.sourceTypeGuess).toBe('peer_reviewed');
      expect(chunkWith(r, 'specialized for the ac')?.headings).toContain('Abstract');
    });

    it('udhr-article1-all-languages.txt: every script survives', async () => {
      const r = await ingest('good/udhr-article1-all-languages.txt');
      expect(r.parsed.format).toBe('text');
      for (const s of ['是人都生而自由', 'يولد جميع الناس', 'כל בני אדם', 'सभी मनुष्यों'])
        expect(r.parsed.text).toContain(s);
      expect(r.parsed.warnings.map((w) => w.code)).not.toContain('invalid_bytes_replaced');
    });

    it('war-and-peace-full.txt: 3.2 MB of plain text', async () => {
      const r = await ingest('good/war-and-peace-full.txt');
      expect(r.parsed.text.length).toBeGreaterThan(3_000_000);
      expect(r.chunks.length).toBeGreaterThan(5000);
    });
  });

  describe('bad/', () => {
    it('empty-zip-as.docx: not_docx', async () => {
      const err = await failure('bad/empty-zip-as.docx');
      expect(err.code).toBe('not_docx');
      expect(err.message).toMatch(/empty ZIP/);
    });

    it('encrypted-aes256-userpw.pdf: password required, wrong password, right password opens', async () => {
      expect((await failure('bad/encrypted-aes256-userpw.pdf')).code).toBe('pdf_password_required');
      expect((await failure('bad/encrypted-aes256-userpw.pdf', { password: 'nope' })).code).toBe('pdf_wrong_password');
      const r = await ingest('bad/encrypted-aes256-userpw.pdf', { password: 'baz' });
      expect(r.parsed.text).toContain('Secret!');
    });

    it('huge-single-line.txt: 4.2 MB on one line chunks by size', async () => {
      const r = await ingest('bad/huge-single-line.txt');
      expect(r.parsed.text.length).toBeGreaterThan(4_000_000);
      expect(r.chunks.length).toBeGreaterThan(1000);
    });

    it('invalid-utf8.txt: replacement characters, counted', async () => {
      const r = await ingest('bad/invalid-utf8.txt');
      const w = r.parsed.warnings.find((x) => x.code === 'invalid_bytes_replaced');
      expect(w?.count).toBeGreaterThan(10);
      expect(r.parsed.text).toContain('café, naïve, 日本');
      expect(r.parsed.text).not.toContain('\u0000');
    });

    it('legacy-word97-renamed.docx: says it is an old .doc', async () => {
      const err = await failure('bad/legacy-word97-renamed.docx');
      expect(err.code).toBe('not_docx');
      expect(err.message).toMatch(/^This is not a Word \.docx file/);
    });

    it('owasp-llm-prompt-injection.md: parses as ordinary text', async () => {
      const r = await ingest('bad/owasp-llm-prompt-injection.md');
      expect(r.parsed.headings[0]).toBe('LLM Prompt Injection Prevention Cheat Sheet');
    });

    it('prompt-injection-policy.txt: the policy is kept, hidden tag characters are removed', async () => {
      const r = await ingest('bad/prompt-injection-policy.txt');
      expect(r.parsed.text).toContain('Hotel stays are capped at 180 EUR per night.');
      expect(r.parsed.text).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
      expect(r.parsed.warnings.map((w) => w.code)).toContain('invisible_characters_removed');
    });

    it('truncated-tracemonkey.pdf: pdf_corrupt (or a partial result), never a hang', async () => {
      const result = await ingestBytes(read('bad/truncated-tracemonkey.pdf'), 't.pdf', (t) => tokenizer.count(t)).catch(
        (e: EvidentError) => e,
      );
      if ('code' in result) expect(result.code).toBe('pdf_corrupt');
      else checkInvariants(result);
    });

    it('umlauts-latin1-not-utf8.md: read as Windows-1252', async () => {
      const r = await ingest('bad/umlauts-latin1-not-utf8.md');
      expect(r.parsed.headings).toEqual(['können']);
      expect(r.parsed.text).toContain('äöüß');
      expect(r.parsed.warnings.map((w) => w.code)).toContain('decoded_as_windows_1252');
    });

    it('xss-script-onerror.html: the text, and nothing of the payloads', async () => {
      const r = await ingest('bad/xss-script-onerror.html');
      expect(r.parsed.title).toBe('Quarterly notes');
      expect(r.parsed.text).toContain('revenue grew 4%');
      expect(r.parsed.text).toContain('headcount was 120');
      for (const s of ['__XSS_FIRED', '<script', 'javascript:', 'onerror']) {
        expect(r.parsed.text.toLowerCase()).not.toContain(s.toLowerCase());
      }
      // The display:none block is kept, marked hidden (src/parse/hidden.ts): the verifier never
      // takes it as evidence. Outside the marked ranges, none of it is left.
      const hidden = r.parsed.hidden ?? [];
      let visible = r.parsed.text;
      for (const h of [...hidden].reverse()) visible = visible.slice(0, h.start) + visible.slice(h.end);
      const marked = hidden.map((h) => r.parsed.text.slice(h.start, h.end)).join('\n');
      for (const s of ['attacker.example', 'ignore all previous instructions']) {
        expect(visible.toLowerCase()).not.toContain(s);
        expect(marked.toLowerCase()).toContain(s);
      }
    });

    it('zero-byte.pdf: empty_file', async () => {
      const err = await failure('bad/zero-byte.pdf');
      expect(err.code).toBe('empty_file');
    });

    it('zipbomb-1GiB-document.docx: zip_bomb from the directory, nothing inflated', async () => {
      const before = process.memoryUsage().heapUsed;
      const err = await failure('bad/zipbomb-1GiB-document.docx');
      expect(err.code).toBe('zip_bomb');
      expect(err.message).toMatch(/word\/document\.xml/);
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    });
  });
});
