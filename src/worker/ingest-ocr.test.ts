/**
 * Scanned PDFs through the worker's ingest path with OCR (Node, the same code): the OCR'd pages
 * reach the document's record (sources and the trail mark them), the OCR progress phase is
 * reported per page, the setting turns it off, and a scan OCR cannot read leaves the library as
 * it was.
 */
import 'fake-indexeddb/auto';
import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanPage, scannedPdf, tablePage } from '../../test/fixtures/scanned-pdf';
import { nodeOcrAssets } from '../node/ocr-assets';
import { nodePdfAssets } from '../node/pdf-assets';
import { describeShared, sharedPath } from '../node/shared-data';
import { wordsInSpan } from '../parse/ocr-words';
import { pageParts } from '../parse/pdf-locate';
import { Library } from '../storage/library';
import type { FileProgress } from './ask-api';
import { Engine } from './engine';
import { ingestFiles } from './ingest-files';
import { bytesOf, WordHashEmbedder } from './testing';

const assets = nodePdfAssets();
const pdfOptions = {
  cMapUrl: assets.cMapUrl,
  standardFontDataUrl: assets.standardFontDataUrl,
  parse: { fetchAsset: assets.fetchAsset },
};
const ocrOn = async () => ({ assets: nodeOcrAssets(), enabled: true });
const ocrOff = async () => ({ assets: nodeOcrAssets(), enabled: false });
const OCR_TIMEOUT = 120_000;

let engine: Engine;
beforeEach(() => {
  engine = new Engine();
  engine.setEmbedder(new WordHashEmbedder());
});

const scanBytes = (): ArrayBuffer => {
  const b = scannedPdf([cleanPage(), tablePage()]);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

describe('ingestFiles with OCR', () => {
  it(
    'makes a scanned PDF searchable, its OCR pages on the document with their confidence',
    async () => {
      const progress: FileProgress[] = [];
      const r = await ingestFiles(
        engine,
        [{ fileId: 's', name: 'harbour-scan.pdf', mimeType: '', bytes: scanBytes() }],
        {
          ...pdfOptions,
          ocr: ocrOn,
          onProgress: (p) => progress.push(p),
        },
      );
      const out = r.files[0];
      expect(out?.ok).toBe(true);
      if (!out?.ok) return;
      expect(out.pages).toBe(2);
      expect(out.warnings.some((w) => /read by OCR/.test(w))).toBe(true);
      const ocrSteps = progress.filter((p) => p.phase === 'ocr').map((p) => `${p.done}/${p.total}`);
      expect(ocrSteps).toEqual(['1/2', '2/2']);
      const listed = engine.documents().find((d) => d.docId === out.docId);
      expect(listed?.ocrPages?.map((p) => p.page)).toEqual([1, 2]);
      expect(listed?.ocrPages?.every((p) => p.confidence > 80)).toBe(true);
      const text = engine
        .documentChunks(out.docId)!
        .chunks.map((c) => c.text)
        .join('\n');
      expect(text).toMatch(/forty blocks before the winter storms/);
    },
    OCR_TIMEOUT,
  );

  it(
    'stores the scan’s OCR words with its original: a chunk’s span marks exactly its words on its page',
    async () => {
      const library = await Library.open({ name: 'evident-ingest-ocr-words' });
      engine.attachStore(library);
      const r = await ingestFiles(
        engine,
        [{ fileId: 's', name: 'harbour-scan.pdf', mimeType: '', bytes: scanBytes() }],
        { ...pdfOptions, ocr: ocrOn, queue: library },
      );
      const out = r.files[0];
      expect(out?.ok).toBe(true);
      if (!out?.ok) return;
      const original = await library.getOriginal(out.docId);
      expect(original?.pages.map((p) => p.words !== undefined)).toEqual([true, true]);
      const words = (s: string): string => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
      const chunks = engine.documentChunks(out.docId)!.chunks;
      for (const c of chunks) {
        // The words each page's part of the chunk marks, joined over its pages: the chunk's words.
        const marked = pageParts(original!.pages, c.start, c.end).flatMap((part) => {
          const page = original!.pages.find((p) => p.page === part.page)!;
          return wordsInSpan(page.words!, part.start - page.start, part.end - page.start).map(
            (i) => page.words!.text[i],
          );
        });
        expect(words(marked.join(' ')), `chunk ${c.ordinal}`).toBe(words(c.text));
      }
      library.close();
    },
    OCR_TIMEOUT,
  );

  it('with the setting off, the scan fails as before and OCR never runs', async () => {
    const progress: FileProgress[] = [];
    const r = await ingestFiles(engine, [{ fileId: 's', name: 'scan.pdf', mimeType: '', bytes: scanBytes() }], {
      ...pdfOptions,
      ocr: ocrOff,
      onProgress: (p) => progress.push(p),
    });
    expect(r.files[0]).toMatchObject({ ok: false, error: { code: 'pdf_no_text' } });
    expect(progress.some((p) => p.phase === 'ocr')).toBe(false);
  });
});

describeShared('ingestFiles with OCR on the shared Russian scan', 'testdocs/good/scanned-no-text-layer.pdf', () => {
  it(
    'ends with "OCR found no readable English text" and leaves the library as it was',
    async () => {
      await ingestFiles(engine, [
        {
          fileId: 'a',
          name: 'leave.md',
          mimeType: '',
          bytes: bytesOf('# Leave\n\nEmployees receive 28 days of leave.\n'),
        },
      ]);
      const before = engine.documents();
      const b = await readFile(sharedPath('testdocs/good/scanned-no-text-layer.pdf'));
      const bytes = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
      const r = await ingestFiles(engine, [{ fileId: 'r', name: 'scanned-no-text-layer.pdf', mimeType: '', bytes }], {
        ...pdfOptions,
        ocr: ocrOn,
      });
      expect(r.files[0]).toMatchObject({
        ok: false,
        error: { code: 'pdf_no_text', message: expect.stringMatching(/OCR found no readable English text/) },
      });
      expect(engine.documents()).toEqual(before);
    },
    OCR_TIMEOUT,
  );
});
