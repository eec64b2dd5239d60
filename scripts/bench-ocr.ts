/**
 * OCR throughput and accuracy in Node: the test fixtures (one column, two columns, rotated, a
 * table) in one PDF, parsed `--rounds` times with OCR as `ingest --dry-run --ocr` does.
 * Prints pages per minute and the character error rate per fixture page.
 *
 *   npx tsx scripts/bench-ocr.ts [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { nodeOcrAssets } from '../src/node/ocr-assets.ts';
import { nodePdfAssets } from '../src/node/pdf-assets.ts';
import { parseDocument } from '../src/parse/index.ts';
import {
  characterErrorRate,
  cleanPage,
  rotatedPage,
  scannedPdf,
  tablePage,
  twoColumnPage,
} from '../test/fixtures/scanned-pdf.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Math.max(1, Number(values.rounds) || 3);
const fixtures = [cleanPage(), twoColumnPage(), rotatedPage(), tablePage()];
const bytes = scannedPdf(fixtures);
const cers: number[] = [];
let ms = 0;
for (let r = 0; r < rounds; r++) {
  const t0 = performance.now();
  const doc = await parseDocument(bytes, {
    fileName: 'bench.pdf',
    ...nodePdfAssets(),
    ocr: { assets: nodeOcrAssets() },
  });
  ms += performance.now() - t0;
  (doc.pages ?? []).forEach((p, i) =>
    cers.push(characterErrorRate(doc.text.slice(p.start, p.end), fixtures[i]!.truth.join(' '))),
  );
}
const pages = fixtures.length * rounds;
const names = ['one column', 'two columns', 'rotated', 'table'];
const perFixture = names.map((name, k) => {
  const mine = cers.filter((_, i) => i % fixtures.length === k);
  return `${name} ${((mine.reduce((a, b) => a + b, 0) / mine.length) * 100).toFixed(2)} %`;
});
const all = (cers.reduce((a, b) => a + b, 0) / cers.length) * 100;
console.log(
  `OCR (Node ${process.version}): ${pages} pages in ${(ms / 1000).toFixed(1)} s = ${((pages / ms) * 60_000).toFixed(0)} pages/min (each run starts its tesseract.js worker); CER ${all.toFixed(2)} % (${perFixture.join(', ')})`,
);
