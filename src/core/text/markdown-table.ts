/**
 * GFM table syntax shared by the parser that writes Markdown tables and the chunker that reads
 * them (`src/parse/markdown-builder.ts`, `src/core/ingest/markdown.ts`, `src/core/ingest/table.ts`).
 */
import { isSpace } from './sentences';

const PIPE = 0x7c;
const DASH = 0x2d;
const COLON = 0x3a;

/**
 * A GFM delimiter row ("|---|:-:|"): only "|", ":", "-" and white space (`isSpace`), with at least
 * one "|" and one "-". Reads `text` from `start` to `end` (default: all of it) without slicing, so
 * the chunker can test a line in place.
 */
export function isDelimiterRow(text: string, start = 0, end = text.length): boolean {
  let pipe = false;
  let dash = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === PIPE) pipe = true;
    else if (code === DASH) dash = true;
    else if (code !== COLON && !isSpace(code)) return false;
  }
  return pipe && dash;
}
