/**
 * Which cited pages were read by OCR: sources and the trail mark a passage from such a page
 * ("OCR"), and flag the page when tesseract was unsure of it, so a reader checks the quote
 * against the scan.
 */
import type { LibraryDocument } from '../worker/api';

/** Below this page confidence (0–100) the mark warns; kept in step with `LOW_CONFIDENCE` in `src/parse/pdf-ocr.ts`. */
export const OCR_LOW_CONFIDENCE = 70;

/** docId → page → confidence, for the pages OCR read. */
export type OcrMarks = ReadonlyMap<string, ReadonlyMap<number, number>>;

export const NO_OCR_MARKS: OcrMarks = new Map();

export function ocrMarks(docs: readonly Pick<LibraryDocument, 'docId' | 'ocrPages'>[]): OcrMarks {
  const out = new Map<string, Map<number, number>>();
  for (const d of docs) {
    if (!d.ocrPages || d.ocrPages.length === 0) continue;
    out.set(d.docId, new Map(d.ocrPages.map((p) => [p.page, p.confidence])));
  }
  return out;
}

export interface OcrMark {
  readonly confidence: number;
  readonly low: boolean;
  /** "OCR" or "OCR, low confidence (55 %)". */
  readonly label: string;
}

/** The mark of a passage on `page` of `docId`; null when the page had a text layer (or no page is known). */
export function ocrMarkOf(marks: OcrMarks, docId: string, page: number | null): OcrMark | null {
  if (page === null) return null;
  const confidence = marks.get(docId)?.get(page);
  if (confidence === undefined) return null;
  const low = confidence < OCR_LOW_CONFIDENCE;
  return {
    confidence,
    low,
    label: low ? `OCR, low confidence (${Math.round(confidence)} %)` : 'OCR',
  };
}
