/**
 * Page furniture: running headers and footers (lines in the top or bottom band of a page whose
 * text, digits masked, repeats on several pages), page numbers ("12", "- 4 -", "Page 3 of 9",
 * "F-7", "xii") and table-of-contents pages. Furniture is taken out of the body text and kept
 * as page metadata; a contents page keeps its text but none of its lines is a heading.
 */
import { numberedHeading } from './headings';
import type { LayoutLine, PageBox } from './types';

export interface FurnitureOptions {
  /** The top and bottom bands reach this share of the page height from where text usually starts and ends. */
  readonly bandShare: number;
  /** At most this many lines at each end of a page are looked at. */
  readonly bandLines: number;
  /** A masked text is running when it is in a band on at least this many pages… */
  readonly minPages: number;
  /** …and on at least this share of them. */
  readonly minPageShare: number;
}

export const FURNITURE_DEFAULTS: FurnitureOptions = Object.freeze({
  bandShare: 0.06,
  bandLines: 3,
  minPages: 3,
  minPageShare: 0.04,
});

export interface PageFurniture {
  /** The lines of the page that are body text, in order. */
  readonly body: readonly LayoutLine[];
  /** The running header's text (the first one), when the page has one. */
  readonly header?: string;
  /** The page number as printed. */
  readonly label?: string;
  /** The page is a table of contents. */
  readonly toc: boolean;
}

const PAGE_NUMBER =
  /^(?:page\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,7}|[A-Z]{1,2}\s?-\s?\d{1,3})\s*[-–—]?(?:\s+of\s+\d{1,4})?$/i;

/** A line that is only a page number. */
export function isPageNumber(text: string): boolean {
  return PAGE_NUMBER.test(text.trim());
}

/** The text with digits masked, for comparing running headers across pages. */
export function maskKey(text: string): string {
  return text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Where a document's pages usually begin and end (medians of the pages' top and bottom lines). */
function textExtent(pages: readonly (readonly LayoutLine[])[]): { top: number; bottom: number } {
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (const lines of pages) {
    if (lines.length === 0) continue;
    tops.push(Math.max(...lines.map((l) => l.y)));
    bottoms.push(Math.min(...lines.map((l) => l.y)));
  }
  const med = (xs: number[]): number => xs.sort((a, b) => a - b)[xs.length >> 1] ?? 0;
  return { top: med(tops), bottom: med(bottoms) };
}

/**
 * Indexes of the lines in the top and bottom bands of a page: among its first and last few
 * lines, those near where the document's pages usually begin or end (margins differ between
 * documents, so the band follows the text, not the paper).
 */
function bandLines(
  lines: readonly LayoutLine[],
  box: PageBox,
  extent: { top: number; bottom: number },
  options: FurnitureOptions,
): number[] {
  const order = lines.map((_, i) => i).sort((a, b) => (lines[b] as LayoutLine).y - (lines[a] as LayoutLine).y);
  const band = box.height * options.bandShare;
  const y = (i: number): number => (lines[i] as LayoutLine).y;
  const top = order.slice(0, options.bandLines).filter((i) => y(i) >= Math.min(extent.top, box.height) - band);
  const bottom = order.slice(-options.bandLines).filter((i) => y(i) <= extent.bottom + band);
  return [...new Set([...top, ...bottom])];
}

const TOC_TITLE = /^(?:table of contents|contents|index)\b/i;
/**
 * "Business ....... 4", "Item 1A. Risk Factors 12": an entry ending in a page number after a
 * word (not after another number: "Total 45 67" is a table row).
 */
const TOC_ENTRY = /(?:\.{3,}|…)\s*\d{1,4}$|\p{L}[\p{L}’'),.]*\s+(?:\d{1,4}|[ivx]{1,5})$/u;

/** A contents page: many lines end in a page number, or a "Contents" title over several that do. */
export function isTocPage(lines: readonly LayoutLine[]): boolean {
  const entries = lines.filter((l) => TOC_ENTRY.test(l.text)).length;
  const titled = lines.slice(0, 6).some((l) => TOC_TITLE.test(l.text) && l.text.length < 40);
  return entries >= 5 && (entries >= lines.length * 0.4 || (titled && entries >= lines.length * 0.25));
}

/** Furniture of every page (see the file comment). */
export function findFurniture(
  pages: readonly (readonly LayoutLine[])[],
  boxes: readonly PageBox[],
  options: FurnitureOptions = FURNITURE_DEFAULTS,
): PageFurniture[] {
  const extent = textExtent(pages);
  const bands = pages.map((lines, p) => bandLines(lines, boxes[p] ?? { width: 612, height: 792 }, extent, options));
  const pagesOf = new Map<string, Set<number>>();
  bands.forEach((idx, p) => {
    for (const i of idx) {
      const key = maskKey((pages[p]?.[i] as LayoutLine).text);
      let set = pagesOf.get(key);
      if (set === undefined) pagesOf.set(key, (set = new Set()));
      set.add(p);
    }
  });
  const exact = new Map<string, Set<number>>();
  bands.forEach((idx, p) => {
    for (const i of idx) {
      const text = (pages[p]?.[i] as LayoutLine).text;
      let set = exact.get(text);
      if (set === undefined) exact.set(text, (set = new Set()));
      set.add(p);
    }
  });
  const enough = (n: number): boolean => n >= options.minPages && n >= pages.length * options.minPageShare;
  // Masked digits only stand for a page number: one short number ("Page 4", "96 Annual Report"),
  // not a date or a period ("Year Ended December 31, 2018" over a table) and not a section
  // number ("Item 7." opening several pages is a heading).
  const running = (line: LayoutLine): boolean =>
    enough(exact.get(line.text)?.size ?? 0) ||
    (enough(pagesOf.get(maskKey(line.text))?.size ?? 0) &&
      (line.text.match(/\d+/g) ?? []).length === 1 &&
      !/\d{5}/.test(line.text) &&
      numberedHeading(line.text) === null);
  return pages.map((lines, p) => {
    const drop = new Set<number>();
    let header: string | undefined;
    let label: string | undefined;
    let inHeader: string | undefined;
    for (const i of bands[p] as number[]) {
      const line = lines[i] as LayoutLine;
      if (isPageNumber(line.text)) {
        label ??= line.text.trim();
        drop.add(i);
      } else if (running(line)) {
        if (line.y >= (boxes[p]?.height ?? 792) / 2) header ??= line.text;
        drop.add(i);
        // "96 Annual Report", "Annual Report | 12": a page number inside a running line.
        const n = /(?:^|\s)(\d{1,3})$|^(\d{1,3})\s/.exec(line.text);
        if (n !== null) inHeader ??= n[1] ?? n[2];
      }
    }
    label ??= inHeader;
    const body = lines.filter((_, i) => !drop.has(i));
    return {
      body,
      toc: isTocPage(body),
      ...(header !== undefined ? { header } : {}),
      ...(label !== undefined ? { label } : {}),
    };
  });
}
