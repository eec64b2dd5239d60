/**
 * A PDF added through `ingestFiles` keeps its original bytes and page ranges in the library
 * (the page view reads them back); other formats keep none; deleting the document removes them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { onboardingDocx, SAFETY_REPORT_PDF } from '../../test/fixtures/documents';
import { nodePdfAssets } from '../node/pdf-assets';
import { pageParts } from '../parse/pdf-locate';
import { Library } from '../storage/library';
import { Engine } from './engine';
import { ingestFiles } from './ingest-files';
import { bytesOf, WordHashEmbedder } from './testing';

const assets = nodePdfAssets();
const pdfOptions = {
  cMapUrl: assets.cMapUrl,
  standardFontDataUrl: assets.standardFontDataUrl,
  parse: { fetchAsset: assets.fetchAsset },
};
let n = 0;

describe('ingestFiles keeps a PDF’s original for the page view', () => {
  it('stores the bytes and page ranges with the PDF (not the DOCX), in which every chunk lies', async () => {
    const library = await Library.open({ name: `evident-ingest-originals-${n++}` });
    const engine = new Engine();
    engine.attachStore(library);
    engine.setEmbedder(new WordHashEmbedder());
    const result = await ingestFiles(
      engine,
      [
        { fileId: 'p', name: 'safety-report.pdf', mimeType: 'application/pdf', bytes: bytesOf(SAFETY_REPORT_PDF) },
        { fileId: 'd', name: 'onboarding.docx', mimeType: '', bytes: bytesOf(await onboardingDocx()) },
      ],
      { ...pdfOptions, queue: library },
    );
    expect(result.files.map((f) => f.ok)).toEqual([true, true]);

    const original = await library.getOriginal('file:safety-report.pdf');
    expect(original?.bytes).toEqual(SAFETY_REPORT_PDF);
    expect(original?.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(await library.getOriginal('file:onboarding.docx')).toBeUndefined();

    // The stored ranges place every chunk on the page the chunk names (its first page).
    const chunks = engine.documentChunks('file:safety-report.pdf')?.chunks ?? [];
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) {
      const parts = pageParts(original?.pages ?? [], c.start, c.end, (s, e) => c.text.slice(s - c.start, e - c.start));
      expect(parts[0]?.page).toBe(c.page);
    }

    await engine.deleteDocument('file:safety-report.pdf');
    expect(await library.getOriginal('file:safety-report.pdf')).toBeUndefined();
    library.close();
  });
});
