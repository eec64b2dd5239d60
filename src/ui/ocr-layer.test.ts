import { describe, expect, it } from 'vitest';
import type { OcrWords } from '../core/ocr-words';
import { ocrWordBoxes } from './ocr-layer';

// Two lines: "forty blocks before" on one (top 100, bottom 112), "the winter" below it.
const WORDS: OcrWords = {
  text: ['forty', 'blocks', 'before', 'the', 'winter'],
  boxes: [72, 100, 100, 112, 104, 100, 140, 112, 144, 100, 180, 112, 72, 118, 90, 130, 94, 118, 130, 130],
  spans: [0, 5, 6, 12, 13, 19, 20, 23, 24, 30],
};

describe('ocrWordBoxes', () => {
  it('joins the words of one line: a space after each, the box up to the next word', () => {
    const boxes = ocrWordBoxes(WORDS, new Set());
    expect(boxes.map((b) => b.text)).toEqual(['forty ', 'blocks ', 'before', 'the ', 'winter']);
    // Each box widened by 0.15 of the line's height (12: 1.8) on each side; a joined one ends where the next begins.
    const tenth = (v: number): number => Math.round(v * 10) / 10;
    expect(boxes.map((b) => [tenth(b.x0), tenth(b.x1), tenth(b.wordX1)])).toEqual([
      [70.2, 102.2, 101.8],
      [102.2, 142.2, 141.8],
      [142.2, 181.8, 181.8],
      [70.2, 92.2, 91.8],
      [92.2, 131.8, 131.8],
    ]);
    expect(boxes.every((b) => b.mark === 'none')).toBe(true);
  });

  it('marks the given words; a marked word followed by a marked word on its line marks the gap too', () => {
    const boxes = ocrWordBoxes(WORDS, new Set([1, 2, 3]));
    expect(boxes.map((b) => b.mark)).toEqual(['none', 'all', 'word', 'word', 'none']);
  });

  it('lists the words in the order of the page’s text: two columns OCR read across come one after the other', () => {
    // OCR read "left1 right1 left2 right2 [page number]"; the text is "left1 left2 right1 right2".
    const across: OcrWords = {
      text: ['left1', 'right1', 'left2', 'right2', '7'],
      boxes: [72, 100, 100, 112, 330, 100, 360, 112, 72, 118, 100, 130, 330, 118, 360, 130, 300, 760, 306, 770],
      spans: [0, 5, 12, 18, 6, 11, 19, 25, -1, -1],
    };
    const boxes = ocrWordBoxes(across, new Set([2, 1]));
    expect(boxes.map((b) => b.text)).toEqual(['left1', 'left2', 'right1', 'right2', '7']);
    expect(boxes.map((b) => b.mark)).toEqual(['none', 'word', 'word', 'none', 'none']);
  });

  it('marks punctuation OCR read as a word of its own with the marked word it touches', () => {
    const split: OcrWords = {
      text: ['dries', 'in', 'spring', '.', '(', 'Cherry', '—'],
      boxes: [
        72, 100, 100, 112, 104, 100, 114, 112, 118, 100, 150, 112, 150, 100, 153, 112, 72, 118, 76, 130, 76, 118, 110,
        130, 300, 118, 310, 130,
      ],
      spans: [0, 5, 6, 8, 9, 15, -1, -1, -1, -1, 18, 24, -1, -1],
    };
    const boxes = ocrWordBoxes(split, new Set([1, 2, 5]));
    expect(boxes.map((b) => `${b.text.trim()}:${b.mark}`)).toEqual([
      'dries:none',
      'in:all',
      'spring:all',
      '.:word',
      '(:all',
      'Cherry:word',
      // Far from the marked word (not touching it): not marked.
      '—:none',
    ]);
    expect(ocrWordBoxes(split, new Set([0])).map((b) => b.mark)).toEqual([
      'word',
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
    ]);
  });

  it('a word at the end of a line is not joined to the first word of the next line', () => {
    const boxes = ocrWordBoxes(WORDS, new Set([2, 3]));
    expect(boxes[2]).toMatchObject({ text: 'before', x1: 181.8, mark: 'word' });
  });
});
