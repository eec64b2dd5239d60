import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { decodeLibrary, encodeLibrary, type DocumentRecord } from '../core/library-format';
import { SAFETY_REPORT_PDF } from '../../test/fixtures/documents';
import { migrate, openEvidentDb, type AnyVersionDB } from './db';
import { Library } from './library';
import { chunksOf, documentRecord } from './testing';

let n = 0;
const name = (): string => `evident-originals-test-${n++}`;
const open = (dbName = name()): Promise<Library> => Library.open({ name: dbName });

const PAGES = [
  { page: 1, start: 0, end: 40 },
  { page: 2, start: 42, end: 80, label: 'F-2' },
];

// A scanned page 2: its OCR'd words, their boxes and places in the page's 38 characters.
const WORDS = {
  text: ['Harbour', 'report', '7'],
  boxes: [72, 90, 130, 104, 134, 90, 170, 104, 300, 760, 306, 770],
  spans: [0, 7, 8, 14, -1, -1],
};
const SCANNED = [PAGES[0]!, { ...PAGES[1]!, words: WORDS }];

function pdfDoc(id: string, addedAt = 1000): DocumentRecord {
  return documentRecord(id, 2, addedAt, { format: 'pdf', fileName: `${id}.pdf`, pageCount: 2 });
}

describe('PDF originals in the library (schema v6)', () => {
  it('stores a PDF’s bytes and page ranges with its document, and returns a copy', async () => {
    const lib = await open();
    const bytes = SAFETY_REPORT_PDF.slice();
    await lib.putDocument({ document: pdfDoc('a'), chunks: chunksOf('a', 2), original: { bytes, pages: PAGES } });
    bytes.fill(0); // the caller's buffer may be reused or transferred afterwards
    const got = await lib.getOriginal('a');
    expect(got?.bytes).toEqual(SAFETY_REPORT_PDF);
    expect(got?.pages).toEqual(PAGES);
    expect(got?.docAddedAt).toBe(1000);
    expect(await lib.getOriginal('missing')).toBeUndefined();
    lib.close();
  });

  it('keeps a page’s printed label and only the known fields of the parser’s ranges', async () => {
    const lib = await open();
    const parsed = [
      { page: 1, start: 0, end: 40, header: 'Running head', toc: true },
      { page: 2, start: 42, end: 80, label: '47' },
    ];
    await lib.putDocument({
      document: pdfDoc('a'),
      chunks: chunksOf('a', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: parsed },
    });
    expect((await lib.getOriginal('a'))?.pages).toEqual([
      { page: 1, start: 0, end: 40 },
      { page: 2, start: 42, end: 80, label: '47' },
    ]);
    lib.close();
  });

  it('keeps a scanned page’s OCR words with the original, and through export and import', async () => {
    const lib = await open();
    await lib.putDocument({
      document: pdfDoc('a'),
      chunks: chunksOf('a', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: SCANNED },
    });
    expect((await lib.getOriginal('a'))?.pages).toEqual(SCANNED);
    const file = await lib.exportLibrary();
    lib.close();
    const dst = await open();
    await dst.importLibrary(file, { mode: 'replace' });
    expect((await dst.getOriginal('a'))?.pages).toEqual(SCANNED);
    dst.close();
  });

  it('refuses OCR words that do not fit their page, writing nothing', async () => {
    const lib = await open();
    const outside = { ...WORDS, spans: [0, 7, 8, 39, -1, -1] };
    await expect(
      lib.putDocument({
        document: pdfDoc('a'),
        chunks: chunksOf('a', 2),
        original: { bytes: SAFETY_REPORT_PDF, pages: [PAGES[0]!, { ...PAGES[1]!, words: outside }] },
      }),
    ).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/page 2 has a span outside/) });
    expect(await lib.getDocument('a')).toBeUndefined();
    lib.close();
  });

  it('refuses an original for a document that is not a PDF, writing nothing', async () => {
    const lib = await open();
    await expect(
      lib.putDocument({
        document: documentRecord('m', 2),
        chunks: chunksOf('m', 2),
        original: { bytes: SAFETY_REPORT_PDF, pages: PAGES },
      }),
    ).rejects.toMatchObject({ code: 'internal' });
    expect(await lib.getDocument('m')).toBeUndefined();
    lib.close();
  });

  it('removes the bytes with the document, and a new version without bytes drops the old ones', async () => {
    const lib = await open();
    await lib.putDocument({
      document: pdfDoc('a'),
      chunks: chunksOf('a', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: PAGES },
    });
    await lib.putDocument({
      document: pdfDoc('b'),
      chunks: chunksOf('b', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: PAGES },
    });
    expect(await lib.deleteDocument('a')).toBe(true);
    expect(await lib.getOriginal('a')).toBeUndefined();
    expect(await lib.getOriginal('b')).toBeDefined();
    // Replaced by a version that kept no bytes: the old version's bytes go with it.
    await lib.putDocument({ document: pdfDoc('b', 2000), chunks: chunksOf('b', 2) });
    expect(await lib.getOriginal('b')).toBeUndefined();
    lib.close();
  });

  it('carries the bytes through export and import (merge and replace)', async () => {
    const src = await open();
    await src.putDocument({
      document: pdfDoc('a'),
      chunks: chunksOf('a', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: PAGES },
    });
    await src.putDocument({ document: documentRecord('t', 1), chunks: chunksOf('t', 1) });
    const file = await src.exportLibrary();
    const snap = decodeLibrary(file);
    expect(snap.originals?.map((o) => o.docId)).toEqual(['a']);
    src.close();

    for (const mode of ['merge', 'replace'] as const) {
      const dst = await open();
      expect(await dst.importLibrary(file, { mode })).toMatchObject({ documents: 2 });
      const got = await dst.getOriginal('a');
      expect(got?.bytes).toEqual(SAFETY_REPORT_PDF);
      expect(got?.pages).toEqual(PAGES);
      expect(await dst.getOriginal('t')).toBeUndefined();
      // And out again: the same bytes.
      expect(decodeLibrary(await dst.exportLibrary()).originals?.[0]?.bytes).toEqual(SAFETY_REPORT_PDF);
      dst.close();
    }
  });

  it('upgrades a v5 database: documents intact, an empty originals store, PDFs without bytes', async () => {
    const dbName = name();
    const v5 = await openDB<AnyVersionDB>(dbName, 5, {
      upgrade(db, oldVersion, _new, tx) {
        void migrate(db, oldVersion, 5, tx);
      },
    });
    expect([...v5.objectStoreNames]).not.toContain('originals');
    const doc = pdfDoc('old');
    await v5.put('documents', doc);
    await v5.put('chunkSets', { docId: 'old', docAddedAt: doc.addedAt, chunks: chunksOf('old', 2) });
    v5.close();
    const db = await openEvidentDb({ name: dbName });
    expect(db.version).toBe(6);
    expect([...db.objectStoreNames]).toContain('originals');
    db.close();
    const lib = await open(dbName);
    expect((await lib.loadText()).documents.map((d) => d.id)).toEqual(['old']);
    expect(await lib.getOriginal('old')).toBeUndefined();
    await lib.putDocument({
      document: pdfDoc('new'),
      chunks: chunksOf('new', 2),
      original: { bytes: SAFETY_REPORT_PDF, pages: PAGES },
    });
    expect((await lib.getOriginal('new'))?.bytes.length).toBe(SAFETY_REPORT_PDF.length);
    lib.close();
  });
});

/** The same export file with its JSON header changed by `edit` (the binary part moved along). */
function rewriteHeader(file: Uint8Array, edit: (header: Record<string, unknown>) => void): Uint8Array {
  const length = new DataView(file.buffer, file.byteOffset).getUint32(8, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(12, 12 + length))) as Record<string, unknown>;
  edit(header);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const tail = file.subarray((12 + length + 3) & ~3);
  const start = (12 + json.length + 3) & ~3;
  const out = new Uint8Array(start + tail.length);
  out.set(file.subarray(0, 8));
  new DataView(out.buffer).setUint32(8, json.length, true);
  out.set(json, 12);
  out.set(tail, start);
  return out;
}

describe('export file version 2 (originals)', () => {
  const doc = pdfDoc('a');
  const base = { documents: [doc], chunks: chunksOf('a', 2), vectors: [], priors: null, feedback: [] };
  const original = {
    docId: 'a',
    docAddedAt: 1000,
    mime: 'application/pdf' as const,
    bytes: SAFETY_REPORT_PDF,
    pages: PAGES,
  };

  it('a library without originals is still written as version 1', () => {
    const file = encodeLibrary(base);
    const headerLength = new DataView(file.buffer).getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(file.subarray(12, 12 + headerLength))) as { version: number };
    expect(header.version).toBe(1);
    expect(decodeLibrary(file).originals).toBeUndefined();
  });

  it('round-trips originals as version 2', () => {
    const back = decodeLibrary(encodeLibrary({ ...base, originals: [original] }));
    expect(back.originals).toEqual([original]);
  });

  it('rejects an original that is no PDF, of a document not in the file, or of another version', () => {
    const notPdf = { ...original, bytes: new TextEncoder().encode('hello, not a pdf') };
    expect(() => decodeLibrary(encodeLibrary({ ...base, originals: [notPdf] }))).toThrow(/is not a PDF/);
    const stranger = { ...original, docId: 'zz' };
    expect(() => decodeLibrary(encodeLibrary({ ...base, originals: [stranger] }))).toThrow(/not in the file/);
    const older = { ...original, docAddedAt: 5 };
    expect(() => decodeLibrary(encodeLibrary({ ...base, originals: [older] }))).toThrow(/another version/);
    const file = encodeLibrary({ ...base, originals: [original] });
    const longLabel = rewriteHeader(file, (h) => {
      const o = (h.originals as { pages: { label?: string }[] }[])[0]!;
      o.pages[1]!.label = 'x'.repeat(65);
    });
    expect(() => decodeLibrary(longLabel)).toThrow(/label is longer than 64/);
    const scanned = encodeLibrary({ ...base, originals: [{ ...original, pages: SCANNED }] });
    expect(decodeLibrary(scanned).originals?.[0]?.pages).toEqual(SCANNED);
    const editWords = (edit: (w: Record<string, unknown>) => void): Uint8Array =>
      rewriteHeader(scanned, (h) =>
        edit((h.originals as { pages: { words: Record<string, unknown> }[] }[])[0]!.pages[1]!.words),
      );
    expect(() => decodeLibrary(editWords((w) => (w.boxes = [1, 2, 3])))).toThrow(
      /words has 3 words but 3 box and 6 span numbers/,
    );
    expect(() => decodeLibrary(editWords((w) => (w.spans = [0, 7, 8, 99, -1, -1])))).toThrow(/span outside its page/);
    expect(() => decodeLibrary(editWords((w) => (w.boxes = [0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 'x', 1])))).toThrow(
      /not four coordinates/,
    );
    expect(() => decodeLibrary(editWords((w) => (w.text = ['a', '', 'b'])))).toThrow(/not text of 1–500/);
    const cut = encodeLibrary({ ...base, originals: [original] });
    expect(() => decodeLibrary(cut.subarray(0, cut.length - 1))).toThrow(/vector section/);
  });
});
