/**
 * Parses and chunks files exactly as the app would, without storing anything.
 *
 *   npm run ingest -- --dry-run FILE… [--password PW] [--max-mb N] [--ocr]
 *
 * `--ocr` reads PDF pages without a text layer with tesseract.js (the app's code, English data
 * from `@tesseract.js-data/eng`); each OCR'd page is listed with its confidence (`ocr`).
 * Prints one JSON line per file:
 *   {file, ok: true, type, pages, headings: {count, first}, chunks, characters, title,
 *    sourceType, status, effectiveDate?, ocr?: [{page, confidence}], warnings, ms}
 *   {file, ok: false, code, message, ms}
 * Chunks come from `chunkDocument` with the USE lite tokenizer (the default embedder's), pages
 * mapped onto chunks with `assignPages`. Exits 1 when any file did not ingest, 2 on bad usage.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EvidentError } from '../core/errors';
import { chunkDocument } from '../core/ingest/chunk';
import { assignHidden } from '../core/ingest/hidden';
import { assignPages } from '../core/ingest/pages';
import type { Chunk } from '../core/types';
import { UseTokenizer, type UseVocabulary } from '../models/use/tokenizer';
import { useModelDir } from '../node/use-node';
import { nodeOcrAssets } from '../node/ocr-assets';
import { nodePdfAssets } from '../node/pdf-assets';
import { chunkFormatOf, parseDocument, type ParsedDocument, type ParseOptions } from '../parse';
import { runIfMain } from './common';

/** The chunk size the app uses for the USE lite embedder (see `Engine.addDocument`). */
export const MAX_CHUNK_TOKENS = 128;
const FIRST_HEADINGS = 5;

export interface IngestedFile {
  readonly parsed: ParsedDocument;
  readonly chunks: readonly Chunk[];
}

export type CountTokens = (text: string) => number;

/** The USE lite tokenizer from the installed model package. */
export async function loadUseTokenizer(): Promise<UseTokenizer> {
  const vocab = JSON.parse(await readFile(path.join(useModelDir(), 'vocab.json'), 'utf8')) as UseVocabulary;
  return UseTokenizer.fromVocabulary(vocab);
}

/** Parses and chunks one file's bytes the way the app does. */
export async function ingestBytes(
  bytes: Uint8Array,
  fileName: string,
  countTokens: CountTokens,
  options: Omit<ParseOptions, 'fileName'> = {},
): Promise<IngestedFile> {
  const parsed = await parseDocument(bytes, { ...nodePdfAssets(), ...options, fileName });
  const docId = path.basename(fileName);
  const chunks = chunkDocument(
    { docId, text: parsed.text, format: chunkFormatOf(parsed.format) },
    { countTokens, maxTokens: MAX_CHUNK_TOKENS },
  );
  return { parsed, chunks: assignHidden(parsed.pages ? assignPages(chunks, parsed.pages) : chunks, parsed.hidden) };
}

/** The JSON line for a successfully ingested file. */
export function summary(file: string, result: IngestedFile, ms: number): Record<string, unknown> {
  const { parsed, chunks } = result;
  const ocrPages = (parsed.pages ?? []).flatMap((p) => (p.ocr ? [{ page: p.page, confidence: p.ocr.confidence }] : []));
  return {
    file,
    ok: true,
    type: parsed.format,
    pages: parsed.pages?.length ?? null,
    headings: { count: parsed.headings.length, first: parsed.headings.slice(0, FIRST_HEADINGS) },
    chunks: chunks.length,
    characters: parsed.text.length,
    title: parsed.title,
    sourceType: parsed.metadata.sourceTypeGuess,
    status: parsed.metadata.statusGuess,
    ...(parsed.metadata.effectiveDateGuess ? { effectiveDate: parsed.metadata.effectiveDateGuess } : {}),
    ...(ocrPages.length > 0 ? { ocr: ocrPages } : {}),
    warnings: parsed.warnings.map((w) => w.code),
    ms: Math.round(ms),
  };
}

const USAGE = 'usage: npm run ingest -- --dry-run FILE… [--password PW] [--max-mb N] [--ocr]';

async function main(argv: string[]): Promise<number> {
  let parsedArgs;
  try {
    parsedArgs = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean', default: false },
        password: { type: 'string' },
        'max-mb': { type: 'string' },
        ocr: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsedArgs;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values['dry-run']) {
    console.error(`Only --dry-run is available: documents are stored by the app, in the browser.\n${USAGE}`);
    return 2;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const maxMb = values['max-mb'] !== undefined ? Number(values['max-mb']) : undefined;
  if (maxMb !== undefined && !(maxMb > 0)) {
    console.error(`--max-mb must be a positive number.\n${USAGE}`);
    return 2;
  }
  const tokenizer = await loadUseTokenizer();
  const countTokens: CountTokens = (t) => tokenizer.count(t);
  let failed = 0;
  for (const file of positionals) {
    const t0 = performance.now();
    try {
      const bytes = new Uint8Array(await readFile(file));
      const result = await ingestBytes(bytes, file, countTokens, {
        ...(values.password !== undefined ? { password: values.password } : {}),
        ...(maxMb !== undefined ? { maxBytes: maxMb * 1024 * 1024 } : {}),
        ...(values.ocr ? { ocr: { assets: nodeOcrAssets() } } : {}),
      });
      console.log(JSON.stringify(summary(file, result, performance.now() - t0)));
    } catch (err) {
      failed++;
      const code = (err as { code?: unknown })?.code;
      const e =
        err instanceof EvidentError
          ? err
          : code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES'
            ? new EvidentError('invalid_input', `Cannot read ${file}: ${String(code)}.`)
            : new EvidentError('internal', `Unexpected failure: ${(err as Error)?.message ?? String(err)}`);
      console.log(
        JSON.stringify({ file, ok: false, code: e.code, message: e.message, ms: Math.round(performance.now() - t0) }),
      );
    }
  }
  return failed > 0 ? 1 : 0;
}

runIfMain(import.meta.url, main);
