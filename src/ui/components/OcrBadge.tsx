import type { OcrMark } from '../ocr-marks';

/** "OCR" on a passage from a scanned page; a warning badge when OCR was unsure of the page. */
export function OcrBadge({ mark }: { readonly mark: OcrMark | null }) {
  if (!mark) return null;
  return (
    <>
      <span
        className={`badge ${mark.low ? 'badge-ocr-low' : 'badge-ocr'}`}
        data-testid="ocr-mark"
        data-confidence={mark.confidence}
        title={`Read by OCR from a scanned page (confidence ${Math.round(mark.confidence)} %)${mark.low ? ': check the quote against the page' : ''}`}
      >
        {mark.label}
      </span>{' '}
    </>
  );
}
