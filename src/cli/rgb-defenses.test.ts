import { describe, expect, it } from 'vitest';
import type { PackedSource } from '../core/select/pack';
import {
  cosineOf,
  keywordUnits,
  kMeans,
  robustragAnswer,
  rougeL,
  standardize,
  tfidfVectors,
  trustragAnswer,
  trustragFilter,
} from './rgb-defenses';

/** A passage packed as the top-k baseline packs it (citation S<i+1>). */
function packed(text: string, i: number): PackedSource {
  const citationId = `S${i + 1}`;
  return {
    citationId,
    candidateId: `d${i}#0`,
    docId: `d${i}`,
    chunkId: `d${i}#0`,
    title: `Result d${i}`,
    headings: [],
    start: 0,
    end: text.length,
    text: `[${citationId}] Result d${i}\n${text}`,
    tokens: text.split(/\s+/).length,
    score: 1 - i / 10,
    sourceType: 'established_news',
    status: 'current',
    rationaleIds: [],
    group: null,
  };
}

const QUESTION = 'Which city hosted the 2031 rowing championship?';
const TRUE = [
  'The 2031 rowing championship was held in Ghent, where crews raced on the Watersportbaan.',
  'Crews from forty nations came to Ghent for the rowing championship of 2031.',
  'Ghent hosted the rowing championship in 2031 after a bid led by the Belgian federation.',
];
/** Three near-copies of one planted claim: the tight cluster TrustRAG sets aside. */
const PLANTED = [
  'The 2031 rowing championship was hosted by the city of Varna on the Black Sea coast.',
  'The 2031 rowing championship was hosted by the city of Varna on the Black Sea shore.',
];

describe('TrustRAG K-means filter', () => {
  it('splits two well-separated groups of points by K-means, whatever the seed', () => {
    const points = [
      [0, 0],
      [0.1, 0],
      [0, 0.1],
      [5, 5],
      [5.1, 5],
      [5, 5.2],
    ];
    for (const seed of [0, 1, 7]) {
      const labels = kMeans(points, { seed });
      expect(new Set(labels.slice(0, 3)).size).toBe(1);
      expect(new Set(labels.slice(3)).size).toBe(1);
      expect(labels[0]).not.toBe(labels[3]);
    }
    expect(kMeans([[1, 2]])).toEqual([0]);
  });

  it('measures overlap and direction: ROUGE-L of near-copies is high, tf-idf cosine of unrelated texts low', () => {
    expect(rougeL(PLANTED[0] as string, PLANTED[1] as string)).toBeGreaterThan(0.8);
    expect(rougeL(TRUE[0] as string, 'Tomatoes need sun.')).toBeLessThan(0.1);
    const [a, b, c] = tfidfVectors([PLANTED[0] as string, PLANTED[1] as string, 'Tomatoes need sun.'], TRUE);
    expect(cosineOf(a!, b!)).toBeGreaterThan(0.8);
    expect(cosineOf(a!, c!)).toBe(0);
    const z = standardize([
      [1, 3],
      [3, 3],
    ]);
    expect(Array.from(z[0]!)).toEqual([-1, 0]);
  });

  it('drops the tight cluster of planted near-copies and keeps the independent reports', () => {
    const texts = [...TRUE, ...PLANTED];
    const vectors = tfidfVectors(texts, texts);
    const r = trustragFilter(texts, vectors, { tight: 0.6 });
    expect(r.clusters).not.toBeNull();
    expect(r.dropped.filter((d) => d.reason === 'tight-cluster').map((d) => d.index)).toEqual([3, 4]);
    expect(r.kept).toEqual(expect.arrayContaining([0, 1, 2].filter((i) => !r.dropped.some((d) => d.index === i))));
    expect(r.kept).not.toContain(3);
    // Nothing shares enough words: the n-gram gate clusters nothing, everything is kept.
    const apart = ['Tomatoes need sun.', 'Rowing boats are long.', 'Ghent lies in Flanders.'];
    expect(trustragFilter(apart, tfidfVectors(apart, apart))).toEqual({ kept: [0, 1, 2], dropped: [], clusters: null });
  });

  it('answers from what the filter kept, never from the dropped cluster', () => {
    const texts = [...TRUE, ...PLANTED];
    const sources = texts.map(packed);
    const { answer, sources: used } = trustragAnswer(
      { question: QUESTION, sources, corpus: texts, denseVectorOf: null },
      { tight: 0.6 },
    );
    expect(used.map((s) => s.docId)).not.toContain('d3');
    expect(used.map((s) => s.docId)).not.toContain('d4');
    expect(answer.text).not.toMatch(/Varna/);
  });
});

describe('RobustRAG keyword aggregation', () => {
  it('splits an answer into the whole, its runs between function words, and their words', () => {
    expect(keywordUnits('the city of Ghent, Belgium')).toEqual([
      'the city of ghent belgium',
      'city',
      'ghent',
      'belgium',
    ]);
  });

  it('keeps the keyword most isolated answers share: the majority of passages wins over a minority', () => {
    const texts = [...TRUE, PLANTED[0] as string];
    const { answer, sources } = robustragAnswer(QUESTION, texts.map(packed));
    expect(answer.kind).toBe('answer');
    expect(answer.text).toMatch(/ghent/);
    expect(answer.text).not.toMatch(/varna/);
    expect(sources.map((s) => s.docId)).not.toContain('d3');
  });

  it('abstains when no keyword reaches min(α·n, β) answers', () => {
    const texts = ['The championship was held in Ghent in 2031.', 'The championship was held in Varna in 2031.'];
    const r = robustragAnswer(QUESTION, texts.map(packed), { alpha: 1, beta: 3 });
    expect(r.answer.kind).toBe('insufficient');
    expect(r.sources).toEqual([]);
  });
});
