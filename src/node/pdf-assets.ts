/**
 * pdf.js resources for Node: the CMaps and standard fonts that ship in `pdfjs-dist`, as file
 * URLs, and a `fetchAsset` that reads them (Node's `fetch` does not read `file:` URLs). The
 * worker passes http(s) URLs of its own copies instead and keeps the default `fetch`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParseOptions } from '../parse';

const require = createRequire(import.meta.url);

/** `cMapUrl`, `standardFontDataUrl` and `fetchAsset` for `parseDocument` in Node. */
export function nodePdfAssets(): Required<Pick<ParseOptions, 'cMapUrl' | 'standardFontDataUrl' | 'fetchAsset'>> {
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  const folder = (name: string): string => `${pathToFileURL(path.join(root, name)).href}/`;
  return {
    cMapUrl: folder('cmaps'),
    standardFontDataUrl: folder('standard_fonts'),
    fetchAsset: async (url: string) =>
      new Uint8Array(await readFile(url.startsWith('file:') ? fileURLToPath(url) : url)),
  };
}
