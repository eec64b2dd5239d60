import { describe, expect, it } from 'vitest';
import { OCR_LOW_CONFIDENCE, ocrMarkOf, ocrMarks } from './ocr-marks';

describe('ocrMarkOf', () => {
  const marks = ocrMarks([
    {
      docId: 'scan',
      ocrPages: [
        { page: 1, confidence: 95.7 },
        { page: 2, confidence: 41.2 },
      ],
    },
    { docId: 'text' },
  ]);
  it('marks only the pages OCR read, and flags the unsure ones', () => {
    expect(ocrMarkOf(marks, 'scan', 1)).toEqual({ confidence: 95.7, low: false, label: 'OCR' });
    expect(ocrMarkOf(marks, 'scan', 2)?.label).toBe('OCR, low confidence (41 %)');
    expect(ocrMarkOf(marks, 'scan', 3)).toBeNull();
    expect(ocrMarkOf(marks, 'text', 1)).toBeNull();
    expect(ocrMarkOf(marks, 'scan', null)).toBeNull();
  });
  it('the flag starts just below the threshold', () => {
    const edge = ocrMarks([
      {
        docId: 'd',
        ocrPages: [
          { page: 1, confidence: OCR_LOW_CONFIDENCE },
          { page: 2, confidence: OCR_LOW_CONFIDENCE - 0.1 },
        ],
      },
    ]);
    expect(ocrMarkOf(edge, 'd', 1)?.low).toBe(false);
    expect(ocrMarkOf(edge, 'd', 2)?.low).toBe(true);
  });
});
