/**
 * Files through the parsers into a real Engine (in memory; the storage path is the engine's own
 * tests' concern). Real test documents from ../shared/testdocs where a format needs them.
 */
import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { nodePdfAssets } from '../node/pdf-assets';
import { describeShared, sharedPath } from '../node/shared-data';
import type { FileOutcome, FileProgress } from './ask-api';
import { Engine } from './engine';
import { fileDocId, ingestFiles } from './ingest-files';
import { bytesOf, WordHashEmbedder } from './testing';

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  engine.setEmbedder(new WordHashEmbedder());
});

const assets = nodePdfAssets();
const parse = { fetchAsset: assets.fetchAsset };
const pdfOptions = { cMapUrl: assets.cMapUrl, standardFontDataUrl: assets.standardFontDataUrl, parse };

const POLICY_MD = `# Leave Policy\n\n## Annual leave\n\nEmployees receive 28 days of annual leave per year.\n\n## Sick leave\n\nReport sickness to your manager before 10:00 on the first day.\n`;

function ok(o: FileOutcome | undefined): Extract<FileOutcome, { ok: true }> {
  if (!o?.ok) throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o;
}

describe('ingestFiles', () => {
  it('parses, chunks, indexes and embeds a Markdown file, with progress in pipeline order', async () => {
    const progress: FileProgress[] = [];
    const stored: string[] = [];
    const r = await ingestFiles(
      engine,
      [{ fileId: 'f1', name: 'leave.md', mimeType: 'text/markdown', bytes: bytesOf(POLICY_MD) }],
      { onProgress: (p) => progress.push(p), onStored: (id) => stored.push(id) },
    );
    const out = ok(r.files[0]);
    expect(out).toMatchObject({
      fileId: 'f1',
      docId: 'file:leave.md',
      title: 'Leave Policy',
      format: 'markdown',
      pages: null,
    });
    expect(out.chunks).toBeGreaterThanOrEqual(1);
    expect(stored).toEqual(['file:leave.md']);
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['parse', 'chunk', 'index', 'embed', 'done']);
    expect(progress.every((p) => p.fileId === 'f1' && p.index === 0 && p.count === 1)).toBe(true);
    const doc = engine.document('file:leave.md');
    expect(doc).toMatchObject({ title: 'Leave Policy', format: 'markdown', vectorState: 'complete' });
    const hits = await engine.search('annual leave days', { k: 3 });
    expect(hits.hits[0]?.docId).toBe('file:leave.md');
  });

  it('reports a file that cannot be read and goes on with the rest', async () => {
    const r = await ingestFiles(engine, [
      { fileId: 'a', name: 'empty.txt', mimeType: 'text/plain', bytes: new ArrayBuffer(0) },
      { fileId: 'b', name: 'leave.md', mimeType: '', bytes: bytesOf(POLICY_MD) },
    ]);
    expect(r.files[0]).toMatchObject({ fileId: 'a', ok: false, error: { code: 'empty_file' } });
    expect(ok(r.files[1]).docId).toBe('file:leave.md');
    expect(engine.documents().map((d) => d.docId)).toEqual(['file:leave.md']);
  });

  it('replaces a file added again under the same name', async () => {
    await ingestFiles(engine, [{ fileId: 'a', name: 'leave.md', mimeType: '', bytes: bytesOf(POLICY_MD) }]);
    const again = await ingestFiles(engine, [
      { fileId: 'b', name: 'leave.md', mimeType: '', bytes: bytesOf(POLICY_MD.replace('28 days', '30 days')) },
    ]);
    expect(ok(again.files[0]).replaced).toBe(true);
    expect(engine.documents()).toHaveLength(1);
  });

  it('stops with aborted when cancelled, leaving the library as it was', async () => {
    const c = new AbortController();
    c.abort();
    await expect(
      ingestFiles(engine, [{ fileId: 'a', name: 'leave.md', mimeType: '', bytes: bytesOf(POLICY_MD) }], {
        signal: c.signal,
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(engine.documents()).toEqual([]);
  });

  it('rejects input that is not a list of files with bytes', async () => {
    await expect(ingestFiles(engine, [{ fileId: 'a', name: 'x.md' } as never])).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('names documents by file name', () => {
    expect(fileDocId('a b.pdf')).toBe('file:a b.pdf');
  });
});

describeShared('ingestFiles on the shared test documents', 'testdocs', () => {
  const doc = async (path: string) => bytesOf(new Uint8Array(await readFile(sharedPath('testdocs', path))));

  it('gives every chunk of a PDF its page, and the document its page count and format', async () => {
    const r = await ingestFiles(
      engine,
      [
        {
          fileId: 'p',
          name: 'tracemonkey-pldi09.pdf',
          mimeType: 'application/pdf',
          bytes: await doc('good/tracemonkey-pldi09.pdf'),
        },
      ],
      pdfOptions,
    );
    const out = ok(r.files[0]);
    expect(out.format).toBe('pdf');
    expect(out.pages).toBe(14);
    const found = engine.documentChunks(out.docId)!;
    expect(found.meta.pageCount).toBe(14);
    expect(found.meta.format).toBe('pdf');
    const pages = found.chunks.map((c) => c.page);
    expect(pages.every((p) => typeof p === 'number' && p >= 1 && p <= 14)).toBe(true);
    // Reading order: pages never go back.
    for (let i = 1; i < pages.length; i++) expect(pages[i]!).toBeGreaterThanOrEqual(pages[i - 1]!);
    expect(new Set(pages).size).toBeGreaterThan(10);
    const hit = (await engine.search('trace trees', { k: 1 })).hits[0];
    expect(hit?.docId).toBe(out.docId);
  });

  it('asks for a PDF password, then opens it with the right one', async () => {
    const bytes = await doc('bad/encrypted-aes256-userpw.pdf');
    const name = 'encrypted-aes256-userpw.pdf';
    const first = await ingestFiles(engine, [{ fileId: 'e', name, mimeType: '', bytes: bytes.slice(0) }], pdfOptions);
    expect(first.files[0]).toMatchObject({ ok: false, error: { code: 'pdf_password_required' } });
    const wrong = await ingestFiles(
      engine,
      [{ fileId: 'e', name, mimeType: '', bytes: bytes.slice(0), password: 'nope' }],
      pdfOptions,
    );
    expect(wrong.files[0]).toMatchObject({ ok: false, error: { code: 'pdf_wrong_password' } });
    const right = await ingestFiles(engine, [{ fileId: 'e', name, mimeType: '', bytes, password: 'baz' }], pdfOptions);
    expect(ok(right.files[0]).format).toBe('pdf');
  });

  it('refuses a Word 97 file renamed .docx with a plain message, and leaves the library unchanged', async () => {
    await ingestFiles(engine, [{ fileId: 'a', name: 'leave.md', mimeType: '', bytes: bytesOf(POLICY_MD) }]);
    const before = engine.documents();
    const r = await ingestFiles(engine, [
      {
        fileId: 'w',
        name: 'legacy-word97-renamed.docx',
        mimeType: '',
        bytes: await doc('bad/legacy-word97-renamed.docx'),
      },
    ]);
    const out = r.files[0];
    expect(out?.ok).toBe(false);
    if (out && !out.ok) {
      expect(['not_docx', 'unsupported_format']).toContain(out.error.code);
      expect(out.error.message).toMatch(/Word|\.doc|format/i);
    }
    expect(engine.documents()).toEqual(before);
  });

  it('keeps the text of a hostile HTML file and none of its script', async () => {
    const r = await ingestFiles(engine, [
      {
        fileId: 'x',
        name: 'xss-script-onerror.html',
        mimeType: 'text/html',
        bytes: await doc('bad/xss-script-onerror.html'),
      },
    ]);
    const out = ok(r.files[0]);
    const text = engine
      .documentChunks(out.docId)!
      .chunks.map((c) => c.text)
      .join('\n');
    expect(text).toMatch(/revenue grew 4%/);
    expect(text).toMatch(/headcount was 120/);
    expect(text).not.toMatch(/__XSS_FIRED|<script|onerror|javascript:/i);
  });

  it('ingests DOCX, HTML and Markdown in one batch with their formats', async () => {
    const r = await ingestFiles(engine, [
      {
        fileId: 'd',
        name: 'simple-heading-bullets.docx',
        mimeType: '',
        bytes: await doc('good/simple-heading-bullets.docx'),
      },
      {
        fileId: 'h',
        name: 'isw-article-with-scripts.html',
        mimeType: 'text/html',
        bytes: await doc('good/isw-article-with-scripts.html'),
      },
      {
        fileId: 'm',
        name: 'owasp-rest-security-cheatsheet.md',
        mimeType: '',
        bytes: await doc('good/owasp-rest-security-cheatsheet.md'),
      },
    ]);
    expect(r.files.map((f) => (f.ok ? f.format : f.error.code))).toEqual(['docx', 'html', 'markdown']);
    expect(engine.documents()).toHaveLength(3);
  });
});
