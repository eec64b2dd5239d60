/**
 * The USE tokenizer against the tfjs-models reference on SciFact: each document as the embedding
 * cache warm-up joins it (title, a space, text). The reference is quadratic, so the whole corpus
 * takes minutes: `npm test` compares a seeded sample (models/use/tokenizer.test.ts), the quality
 * suite every document (models/use/tokenizer.quality.test.ts).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { mulberry32 } from '../core/util/prng';
import { sharedPath } from './shared-data';

/** The corpus file, relative to the shared root (for `describeShared`). */
export const SCIFACT_CORPUS = 'datasets/scifact/corpus.jsonl';

export interface CorpusText {
  readonly id: string;
  readonly text: string;
}

export interface TokenMismatch extends CorpusText {
  readonly expected: readonly number[];
  readonly actual: readonly number[];
}

/**
 * SciFact's documents as "title text", in file order; with `sample`, `size` of them drawn without
 * replacement by a seeded shuffle, so every run compares the same documents.
 */
export function scifactTexts(sample?: { readonly size: number; readonly seed: number }): CorpusText[] {
  const texts: CorpusText[] = [];
  for (const line of readFileSync(sharedPath(SCIFACT_CORPUS), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const doc = JSON.parse(line) as { _id: string; title: string; text: string };
    texts.push({ id: doc._id, text: `${doc.title} ${doc.text}` });
  }
  if (!sample || sample.size >= texts.length) return texts;
  const random = mulberry32(sample.seed);
  // Fisher–Yates over the first `size` places only.
  for (let place = 0; place < sample.size; place++) {
    const pick = place + Math.floor(random() * (texts.length - place));
    [texts[place], texts[pick]] = [texts[pick] as CorpusText, texts[place] as CorpusText];
  }
  return texts.slice(0, sample.size);
}

/**
 * The first text whose ids differ between `encode` and `reference`, or undefined. A plain loop
 * keeps thousands of comparisons fast and the failure report to the one document that differs.
 */
export function firstMismatch(
  texts: readonly CorpusText[],
  encode: (text: string) => readonly number[],
  reference: (text: string) => readonly number[],
): TokenMismatch | undefined {
  for (const doc of texts) {
    const expected = reference(doc.text);
    const actual = encode(doc.text);
    if (actual.length !== expected.length || actual.some((id, index) => id !== expected[index])) {
      return { ...doc, expected, actual };
    }
  }
  return undefined;
}

/** Fails naming the first document whose ids differ from the reference's, with both id lists. */
export function expectReferenceIds(
  texts: readonly CorpusText[],
  encode: (text: string) => readonly number[],
  reference: (text: string) => readonly number[],
): void {
  const mismatch = firstMismatch(texts, encode, reference);
  expect(mismatch?.actual, mismatch && `doc ${mismatch.id}: ${mismatch.text.slice(0, 80)}`).toEqual(mismatch?.expected);
}
