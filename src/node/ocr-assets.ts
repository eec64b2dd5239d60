/** tesseract.js's English data for Node (the CLI and tests): read straight from `node_modules`. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OcrAssets } from '../parse/pdf-ocr';

export function nodeOcrAssets(): OcrAssets {
  const require = createRequire(import.meta.url);
  const eng = dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  return { langPath: join(eng, '4.0.0_best_int') };
}
