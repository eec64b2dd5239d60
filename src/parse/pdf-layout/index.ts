/**
 * PDF layout: positioned text items of a page → lines in reading order. The stages, one per
 * file: rows and lines (`lines.ts`), columns (`columns.ts`), page furniture and contents pages
 * (`furniture.ts`), numbered headings (`headings.ts`), tables (`tables.ts`). `pdf.ts` feeds
 * them from pdf.js and writes the result.
 */
import { findGutters, readColumns } from './columns';
import { groupRows } from './lines';
import type { LayoutLine, PositionedItem } from './types';

export { findFurniture, isPageNumber, isTocPage, maskKey, type PageFurniture } from './furniture';
export { continuesSequence, isStatementTitle, numberedHeading, sequenceNumber, type NumberedHeading } from './headings';
export { findTables, type TableBlock } from './tables';
export type { LayoutLine, PageBox, PositionedItem, Segment } from './types';

/** One page's lines in reading order: rows by baseline, read column by column. */
export function layoutPage(items: readonly PositionedItem[]): LayoutLine[] {
  const rows = groupRows(items);
  return readColumns(rows, findGutters(rows));
}
