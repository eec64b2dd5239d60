import { describe, expect, it } from 'vitest';
import { nodePdfAssets } from '../node/pdf-assets';
import { docx, pdf, w } from '../../test/fixtures/documents';
import { chunkFormatOf, DEFAULT_MAX_BYTES, parseDocument } from '.';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('parseDocument', () => {
  it('dispatches each format and fills title, headings and guesses', async () => {
    const md = await parseDocument(text('# Expense policy\n\nMeals up to 45 EUR.\n'), {
      fileName: 'expense-policy-DRAFT.md',
    });
    expect(md).toMatchObject({
      format: 'markdown',
      title: 'Expense policy',
      headings: ['Expense policy'],
      metadata: { sourceTypeGuess: 'internal_policy', statusGuess: 'draft' },
    });
    const html = await parseDocument(
      text('<html><head><title>Q3 notes</title></head><body><p>Revenue grew.</p></body></html>'),
      {
        fileName: 'q3.html',
      },
    );
    expect(html).toMatchObject({ format: 'html', title: 'Q3 notes', text: 'Revenue grew.' });
    const txt = await parseDocument(text('Plain words.'), { fileName: 'minutes-2024-03-07.txt' });
    expect(txt).toMatchObject({
      format: 'text',
      title: 'minutes-2024-03-07',
      metadata: { effectiveDateGuess: '2024-03-07' },
    });
    const word = await parseDocument(await docx(w.heading(1, 'Scope') + w.para('Applies to all staff.')), {
      fileName: 'scope.docx',
    });
    expect(word).toMatchObject({ format: 'docx', title: 'Scope', headings: ['Scope'] });
    const paper = await parseDocument(pdf([[{ text: 'Body text on the only page.', y: 700 }]]), {
      fileName: 'p.pdf',
      ...nodePdfAssets(),
    });
    expect(paper).toMatchObject({ format: 'pdf', title: 'p', pages: [{ page: 1, start: 0 }] });
  });

  it('refuses empty files and files with no text', async () => {
    await expect(parseDocument(new Uint8Array(0), { fileName: 'zero.pdf' })).rejects.toMatchObject({
      code: 'empty_file',
      message: 'This file is empty (0 bytes).',
    });
    await expect(parseDocument(text(' \n\t\n'), { fileName: 'blank.txt' })).rejects.toMatchObject({
      code: 'empty_file',
    });
    await expect(
      parseDocument(text('<html><script>x()</script></html>'), { fileName: 'x.html' }),
    ).rejects.toMatchObject({
      code: 'empty_file',
    });
  });

  it('refuses files over maxBytes with sizes in the message, before reading them', async () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    await expect(parseDocument(big, { fileName: 'big.pdf', maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'file_too_large',
      message: 'This file is 3 MB; the limit is 1 MB.',
    });
    expect(DEFAULT_MAX_BYTES).toBe(100 * 1024 * 1024);
  });

  it('says the 250 MB file is over the 100 MB default', async () => {
    // A view with a fake length would not be a real file; a sparse 250 MB buffer is cheap to allocate.
    const huge = new Uint8Array(250 * 1024 * 1024);
    await expect(parseDocument(huge, { fileName: 'huge.pdf' })).rejects.toMatchObject({
      message: 'This file is 250 MB; the limit is 100 MB.',
    });
  });

  it('rejects unknown options and bad option values naming them', async () => {
    await expect(parseDocument(text('x'), { fileName: 'a.txt', passwd: 'x' } as never)).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('"passwd"'),
    });
    await expect(parseDocument(text('x'), { fileName: 'a.txt', cMapUrl: '/no-slash' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await expect(parseDocument('x' as never, { fileName: 'a.txt' })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('stops with aborted for an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(parseDocument(text('x'), { fileName: 'a.txt', signal: ac.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('tells the chunker how to read each format', () => {
    expect(chunkFormatOf('text')).toBe('text');
    for (const f of ['pdf', 'docx', 'html', 'markdown'] as const) expect(chunkFormatOf(f)).toBe('markdown');
  });
});
