/**
 * PDF text a reader cannot see, per text item of a page (`parsePdf` wraps those items' text in
 * the marks of `hidden.ts`):
 *
 * - `tiny_text`: a font size under `MIN_VISIBLE_SIZE` points (zero-size text, or text scaled away)
 *   whose letters also advance less than that on average, on a page that has readable text too
 *   (`parsePdf`: a page of nothing but "tiny" text has a font matrix pdf.js does not size).
 * - `off_page`: the item lies wholly outside the page's crop box (pdf.js `page.view`).
 * - `invisible_text`: drawn with text render mode 3 or 7 (neither filled nor stroked) — except on
 *   a page that paints an image and draws less visible text than invisible text: that is a scan
 *   with an OCR text layer (invisible by design, laid over the picture of the same words), and its
 *   text is what a reader sees in the image.
 * - `white_text`: filled pure white on a page that paints no image and fills no non-white shape
 *   before it (white on a dark box or photo is visible; white on the bare page is not).
 *
 * Render mode and colour are not in pdf.js's text content; they come from the page's operator
 * list (`getOperatorList`), where `showText` glyphs carry their Unicode. Items are matched to the
 * operator list's text by content: an item is hidden when its letters (spaces removed) occur in
 * text drawn hidden and nowhere in text drawn visibly, so a short common string ("a", "1") drawn
 * both ways stays visible. Not seen: text under an opaque shape or image, text clipped away,
 * near-white or transparent (`ca 0`) text, white text on a shape drawn in another colour space.
 */
import type { HiddenTextKind } from '../core/types';

/** Font size (points) under which text is unreadable. */
export const MIN_VISIBLE_SIZE = 1;
/** Points of slack around the crop box (text touching the edge is on the page). */
const EDGE_SLACK = 1;

/** pdf.js operator codes this reader needs (`pdfjs.OPS`; stable across pdf.js releases). */
export const DEFAULT_OPS = Object.freeze({
  save: 10,
  restore: 11,
  fill: 22,
  eoFill: 23,
  fillStroke: 24,
  eoFillStroke: 25,
  closeFillStroke: 26,
  closeEOFillStroke: 27,
  setTextRenderingMode: 38,
  showText: 44,
  showSpacedText: 45,
  nextLineShowText: 46,
  nextLineSetSpacingShowText: 47,
  setFillRGBColor: 59,
  paintImageMaskXObject: 83,
  paintImageXObject: 85,
  paintInlineImageXObject: 86,
  paintImageXObjectRepeat: 88,
  constructPath: 91,
});
export type PdfOps = Readonly<Record<keyof typeof DEFAULT_OPS, number>>;

export interface OperatorList {
  readonly fnArray: ArrayLike<number>;
  readonly argsArray: ArrayLike<unknown>;
}

/** What a page's operator list says about how its text is drawn. */
export interface DrawnText {
  /** Letters (no whitespace) drawn invisibly (render mode 3/7) and white on the bare page. */
  readonly invisible: string;
  readonly white: string;
  /** Letters drawn visibly. */
  readonly visible: string;
  /** The page paints an image and draws less visible than invisible text: an OCR text layer. */
  readonly ocrLayer: boolean;
}

function glyphText(arg: unknown): string {
  if (!Array.isArray(arg)) return '';
  let s = '';
  for (const g of arg) {
    if (typeof g === 'object' && g !== null && typeof (g as { unicode?: unknown }).unicode === 'string') {
      s += (g as { unicode: string }).unicode;
    }
  }
  return s.replace(/\s+/g, '');
}

function isWhite(arg: unknown): boolean {
  if (typeof arg === 'string') return /^#?(?:fff|ffffff)$/i.test(arg);
  if (Array.isArray(arg) && arg.length >= 3) return arg.slice(0, 3).every((v) => typeof v === 'number' && v >= 255);
  return false;
}

/** Reads the operator list of one page (see the file comment). */
export function drawnText(list: OperatorList, ops: PdfOps = DEFAULT_OPS): DrawnText {
  const fills = new Set([
    ops.fill,
    ops.eoFill,
    ops.fillStroke,
    ops.eoFillStroke,
    ops.closeFillStroke,
    ops.closeEOFillStroke,
  ]);
  const images = new Set([
    ops.paintImageXObject,
    ops.paintInlineImageXObject,
    ops.paintImageMaskXObject,
    ops.paintImageXObjectRepeat,
  ]);
  const shows = new Set([ops.showText, ops.showSpacedText, ops.nextLineShowText, ops.nextLineSetSpacingShowText]);
  let state = { mode: 0, white: false };
  const stack: (typeof state)[] = [];
  let backdrop = false;
  let image = false;
  const invisible: string[] = [];
  const white: string[] = [];
  const visible: string[] = [];
  const n = list.fnArray.length;
  for (let i = 0; i < n; i++) {
    const fn = list.fnArray[i] as number;
    const args = list.argsArray[i] as unknown[] | null | undefined;
    if (fn === ops.save) stack.push(state);
    else if (fn === ops.restore) state = stack.pop() ?? { mode: 0, white: false };
    else if (fn === ops.setTextRenderingMode) state = { ...state, mode: Number(args?.[0] ?? 0) };
    else if (fn === ops.setFillRGBColor) state = { ...state, white: isWhite(args?.[0]) };
    else if (images.has(fn)) {
      image = true;
      backdrop = true;
    } else if (fills.has(fn) || (fn === ops.constructPath && fills.has(Number(args?.[0])))) {
      if (!state.white) backdrop = true;
    } else if (shows.has(fn)) {
      const text = glyphText(args?.[args.length - 1]);
      if (text === '') continue;
      // Modes 3 (invisible) and 7 (clip only) paint nothing; the others fill, stroke or both.
      if (state.mode === 3 || state.mode === 7) invisible.push(text);
      else if (state.white && !backdrop && state.mode !== 1 && state.mode !== 5) white.push(text);
      else visible.push(text);
    }
  }
  // Joined without separators: pdf.js may merge the text of two operators into one item.
  const inv = invisible.join('');
  const vis = visible.join('');
  return {
    invisible: inv,
    white: white.join(''),
    visible: vis,
    ocrLayer: image && vis.length < inv.length,
  };
}

/** The part of a pdf.js text item this reader needs. */
export interface ItemGeometry {
  readonly str: string;
  readonly transform: readonly number[];
  readonly width?: number;
}

/**
 * How `item` is hidden from a reader, or null when it is visible. `view` is the page's crop box
 * ([x0, y0, x1, y1]); `drawn` the page's operator-list reading, when it could be had.
 */
export function hiddenKindOf(
  item: ItemGeometry,
  view: readonly number[] | undefined,
  drawn: DrawnText | null,
): HiddenTextKind | null {
  const letters = item.str.replace(/\s+/g, '');
  if (letters === '') return null;
  const t = item.transform;
  const size = Math.hypot(t[2] ?? 0, t[3] ?? 0);
  const hScale = Math.hypot(t[0] ?? 0, t[1] ?? 0);
  const advance =
    typeof item.width === 'number' && Number.isFinite(item.width) ? Math.abs(item.width) / letters.length : 0;
  // The matrix alone misleads for fonts with an unusual font matrix (a 10-K exhibit reports 0.55 pt
  // for a line 575 pt wide): text is tiny only when its letters also advance less than that size.
  if ((size < MIN_VISIBLE_SIZE || hScale < MIN_VISIBLE_SIZE) && advance < MIN_VISIBLE_SIZE) return 'tiny_text';
  if (view !== undefined && view.length >= 4) {
    const [x0, y0, x1, y1] = view as [number, number, number, number];
    const x = t[4] ?? 0;
    const y = t[5] ?? 0;
    const w = typeof item.width === 'number' && Number.isFinite(item.width) ? Math.abs(item.width) : 0;
    if (
      x >= x1 + EDGE_SLACK ||
      x + w <= x0 - EDGE_SLACK ||
      y - size >= y1 + EDGE_SLACK ||
      y + size <= y0 - EDGE_SLACK
    ) {
      return 'off_page';
    }
  }
  if (drawn === null || (drawn.invisible === '' && drawn.white === '') || drawn.visible.includes(letters)) return null;
  if (!drawn.ocrLayer && drawn.invisible.includes(letters)) return 'invisible_text';
  if (drawn.white.includes(letters)) return 'white_text';
  return null;
}
