/**
 * `locateSpan` over a real filing (read from ../shared at run time): every chunk of MGM Resorts'
 * 2018 10-K, cut by page, is looked up among its page's pdf.js text items as the page view does.
 * Bound: at least 90 % of the page parts have every letter and digit of the span marked (95.0 %
 * when written). The others are mostly table headers that the layout repeats once per column
 * ("The following table summarizes …: 2019 | … : 2020"), which the page holds once.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { chunkDocument } from '../core/ingest/chunk';
import { nodePdfAssets } from '../node/pdf-assets';
import { describeShared, sharedPath } from '../node/shared-data';
import { parseDocument } from './index';
import { loadDefaultPdfjs } from './pdf';
import { locateSpan, pageParts } from './pdf-locate';

const FILING = 'datasets/financebench-dev/docs/MGMRESORTS_2018_10K.pdf';
const key = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

interface Pdfjs {
  getDocument(p: Record<string, unknown>): {
    promise: Promise<{
      getPage(n: number): Promise<{ getTextContent(): Promise<{ items: readonly { str?: string }[] }> }>;
    }>;
    destroy(): Promise<void>;
  };
}

describeShared('locateSpan on a 188-page 10-K', [FILING], () => {
  it('marks every letter and digit of at least 90 % of the chunks’ page parts', async () => {
    const bytes = new Uint8Array(await readFile(sharedPath(FILING)));
    const parsed = await parseDocument(bytes, { fileName: 'MGMRESORTS_2018_10K.pdf', ...nodePdfAssets() });
    const chunks = chunkDocument(
      { docId: 'd', text: parsed.text, format: 'markdown' },
      { countTokens: (t) => Math.ceil(t.split(/\s+/).length * 1.3), maxTokens: 128 },
    );
    const task = ((await loadDefaultPdfjs()) as unknown as Pdfjs).getDocument({
      data: bytes.slice(),
      isEvalSupported: false,
      verbosity: 0,
    });
    const doc = await task.promise;
    const itemsOf = new Map<number, string[]>();
    let parts = 0;
    let exact = 0;
    try {
      for (const c of chunks) {
        for (const p of pageParts(parsed.pages ?? [], c.start, c.end, (s, e) => parsed.text.slice(s, e))) {
          let items = itemsOf.get(p.page);
          if (items === undefined) {
            const content = await (await doc.getPage(p.page)).getTextContent();
            items = content.items.flatMap((it) => (typeof it.str === 'string' ? [it.str] : []));
            itemsOf.set(p.page, items);
          }
          const span = parsed.text.slice(p.start, p.end);
          if (key(span) === '') continue;
          const found = items;
          const shown = locateSpan(span, found)
            .map((r) => (found[r.item] as string).slice(r.start, r.end))
            .join(' ');
          parts++;
          if (key(shown) === key(span)) exact++;
        }
      }
    } finally {
      await task.destroy();
    }
    console.log(
      `[locate] MGM 10-K: ${exact} of ${parts} page parts marked whole (${((100 * exact) / parts).toFixed(1)} %)`,
    );
    expect(parts).toBeGreaterThan(1000);
    expect(exact / parts).toBeGreaterThanOrEqual(0.9);
  }, 240_000);
});
