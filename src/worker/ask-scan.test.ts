/**
 * A question about a scanned PDF, asked as the app asks it (issue 16): the demo library, the scan
 * added twice (the OCR e2e adds the harbour page in two files), the real USE-lite embedder, OCR in
 * Node with the same code as the worker. The answer is released, cites the OCR'd passage, and the
 * copy of the page in the other file does not count as a rival document.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanPage, rotatedPage, scannedPdf, tablePage, twoColumnPage } from '../../test/fixtures/scanned-pdf';
import type { Embedder } from '../models/embedder';
import { nodeOcrAssets } from '../node/ocr-assets';
import { nodePdfAssets } from '../node/pdf-assets';
import { loadUseEmbedderNode } from '../node/use-node';
import { DEMO_DOCUMENTS } from '../ui/demo';
import { ask } from './ask';
import { Engine } from './engine';
import { ingestFiles } from './ingest-files';
import { SettingsHost } from './settings';

const assets = nodePdfAssets();
const bytes = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
let embedder: Embedder;
const engine = new Engine();

beforeAll(async () => {
  ({ embedder } = await loadUseEmbedderNode());
  engine.setEmbedder(embedder);
  for (const d of DEMO_DOCUMENTS) await engine.addDocument(d);
  const r = await ingestFiles(
    engine,
    [
      { fileId: 'a', name: 'harbour-scan.pdf', mimeType: '', bytes: bytes(scannedPdf([cleanPage(), twoColumnPage()])) },
      {
        fileId: 'b',
        name: 'fixtures-scan.pdf',
        mimeType: '',
        bytes: bytes(scannedPdf([cleanPage(), twoColumnPage(), rotatedPage(), tablePage()])),
      },
    ],
    {
      cMapUrl: assets.cMapUrl,
      standardFontDataUrl: assets.standardFontDataUrl,
      parse: { fetchAsset: assets.fetchAsset },
      ocr: async () => ({ assets: nodeOcrAssets(), enabled: true }),
    },
  );
  expect(r.files.map((f) => f.ok)).toEqual([true, true]);
}, 240_000);

afterAll(() => embedder?.dispose());

const askIt = (q: string) => ask({ engine, settings: new SettingsHost(() => null) }, q);

describe('a question about a scanned PDF beside the demo library', () => {
  it('is answered from the OCR’d page, with the citation marked OCR', async () => {
    const r = await askIt('How many blocks do the engineers recommend replacing?');
    expect(r.outcome, r.reason ?? '').toBe('supported');
    expect(r.answer.short?.text).toBe('forty');
    const cited = new Set(r.answer.sentences.flatMap((s) => s.citationIds));
    const sources = r.sources.filter((s) => cited.has(s.citationId));
    expect(sources.length).toBeGreaterThan(0);
    for (const s of sources) {
      expect(s.docId).toMatch(/^file:(harbour|fixtures)-scan\.pdf$/);
      // The app marks a source OCR when its page is one of the document's OCR'd pages.
      const ocrPages = engine.documents().find((d) => d.docId === s.docId)?.ocrPages ?? [];
      expect(ocrPages.map((p) => p.page)).toContain(s.page);
    }
    // The same page in the other file is a copy, not a rival: the margin reads the demo policy.
    expect(r.abstention.signals.margin as number).toBeGreaterThan(0.5);
  }, 60_000);

  it('reads an amount written in words as one number, not its first word', async () => {
    const r = await askIt('What is the estimated cost of the repair?');
    expect(r.answer.short?.text).toBe('three hundred thousand euros');
    // Released, or refused for resting on one passage: never a weak-match excuse.
    if (r.outcome !== 'supported') expect(r.abstention.reason).toBe('uncorroborated');
  }, 60_000);
});
