/**
 * Types of the PDF layout stages. They describe positioned text, not pdf.js objects, so every
 * stage is a pure function that tests feed with hand-placed items (PDF user space: points, y up).
 */

/** One run of text as the PDF draws it: a pdf.js text item reduced to its position and size. */
export interface PositionedItem {
  readonly str: string;
  /** Left end of the baseline. */
  readonly x: number;
  /** Baseline, from the bottom of the page. */
  readonly y: number;
  /** Advance width in points (0 when unknown). */
  readonly width: number;
  /** Font size in points (the text matrix's vertical scale). */
  readonly size: number;
  /** The font's name when the PDF tells it; "Bold", "Black", "Semibold" in it mean bold. */
  readonly fontName?: string;
}

/** A run of a line's items with no wide gap inside: a table cell, a column's part of a line. */
export interface Segment {
  readonly text: string;
  readonly x: number;
  readonly xEnd: number;
}

/** One line of text, items ordered by x, with what the later stages read. */
export interface LayoutLine {
  readonly text: string;
  readonly x: number;
  readonly xEnd: number;
  /** Baseline of the line's largest text. */
  readonly y: number;
  /** Font size carrying most of the line's characters. */
  readonly size: number;
  /** Non-space characters. */
  readonly chars: number;
  /** Most of its characters are in a bold font. */
  readonly bold: boolean;
  readonly segments: readonly Segment[];
  /** 0-based column it was read in; -1 for a line spanning the columns (or a one-column page). */
  readonly column: number;
}

/** The page box the items lie in. */
export interface PageBox {
  readonly width: number;
  readonly height: number;
}
