import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { EmbedOptions } from '../models/embedder';
import { mulberry32 } from '../core/util/prng';
import type { AddDocumentInput, IngestProgress, SearchResponse } from './api';
import { embeddingText, Engine } from './engine';
import { WordHashEmbedder } from './testing';

/** The engine is the unit under test; the hashed bag-of-words embedder (`testing.ts`) a collaborator. */
const hashEmbedder = (): WordHashEmbedder => new WordHashEmbedder({ id: 'hash-64', yieldEvery: 2 });

const POLICY: AddDocumentInput = {
  docId: 'policy',
  title: 'Remote Work Policy',
  format: 'markdown',
  sourceType: 'internal_policy',
  status: 'current',
  text: `# Remote Work Policy\n\n## Limits\n\nEmployees may work remotely for up to three days per week.\n\n## Equipment\n\nA home office allowance of EUR 600 covers a desk and a chair.\n`,
};
const TRAVEL: AddDocumentInput = {
  docId: 'travel',
  title: 'Travel Policy',
  format: 'markdown',
  text: `# Travel\n\nBook flights through the travel desk. Meals are covered up to EUR 60 per day.\n`,
};

/** Many short chunks (the hash embedder counts words as tokens: 40 paragraphs of ~40 words). */
const BIG: AddDocumentInput = {
  docId: 'big',
  title: 'Big',
  format: 'text',
  text: Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i}. ${'Some words about the subject at hand. '.repeat(6)}`,
  ).join('\n\n'),
};

async function engineWith(...docs: AddDocumentInput[]): Promise<{ engine: Engine; embedder: WordHashEmbedder }> {
  const engine = new Engine({ embedBatch: 8 });
  const embedder = hashEmbedder();
  engine.setEmbedder(embedder);
  for (const d of docs) await engine.addDocument(d);
  return { engine, embedder };
}

describe('Engine', () => {
  it('needs an embedder before documents are added', async () => {
    await expect(new Engine().addDocument(POLICY)).rejects.toMatchObject({ code: 'model_not_found' });
  });

  it('chunks by section, embeds with progress, and lists the documents', async () => {
    const { engine } = await engineWith();
    const progress: IngestProgress[] = [];
    const r = await engine.addDocument(POLICY, { onProgress: (p) => progress.push(p) });
    expect(r.chunks).toBeGreaterThanOrEqual(2);
    expect(r.replaced).toBe(false);
    expect(progress[0]!.phase).toBe('chunk');
    expect(progress.at(-1)).toEqual({ docId: 'policy', phase: 'done', done: r.chunks, total: r.chunks });
    expect(progress.filter((p) => p.phase === 'embed').map((p) => p.done)).toContain(r.chunks);
    expect(engine.documents()).toEqual([
      {
        docId: 'policy',
        title: 'Remote Work Policy',
        chunks: r.chunks,
        sourceType: 'internal_policy',
        status: 'current',
        fileName: '',
        addedAt: expect.any(Number),
        vectors: r.chunks,
        vectorState: 'complete',
        format: 'markdown',
        pageCount: null,
      },
    ]);
    expect(engine.chunkCount).toBe(r.chunks);
  });

  it('ranks the matching chunk first with bm25, dense and fused scores and a trace in pipeline order', async () => {
    const { engine } = await engineWith(POLICY, TRAVEL);
    const res = await engine.search('how many days per week can employees work remotely', { k: 5 });
    expect(res.dense).toBe(true);
    expect(res.queryTerms).toContain('remot');
    const top = res.hits[0]!;
    expect(top.docId).toBe('policy');
    expect(top.text).toMatch(/three days per week/);
    expect(top.headings).toEqual(['Remote Work Policy', 'Limits']);
    expect(top.scores.bm25).toBeGreaterThan(0);
    expect(top.scores.dense).toBeGreaterThan(0);
    expect(top.scores.fused).toBe(top.score);
    expect(top.ranks).toEqual({ bm25: 1, dense: 1 });
    expect(top.trace.map((t) => t.stage)).toEqual(['bm25', 'dense', 'fusion']);
    // The per-term explanation sums to the BM25 score.
    const sum = top.terms.reduce((s, t) => s + t.score, 0);
    expect(sum).toBeCloseTo(top.scores.bm25!, 4);
    expect(top.terms.map((t) => t.term)).toEqual(expect.arrayContaining(['week', 'remot']));
    // Ranks are 1..n and fused scores never increase down the list.
    expect(res.hits.map((h) => h.rank)).toEqual(res.hits.map((_, i) => i + 1));
    for (let i = 1; i < res.hits.length; i++) expect(res.hits[i]!.score).toBeLessThanOrEqual(res.hits[i - 1]!.score);
  });

  it('keeps chunks only the dense retriever returned, without a BM25 score or terms', async () => {
    const { engine } = await engineWith(POLICY, TRAVEL);
    // Only the travel chunk contains "flight(s)"; the dense scan returns every chunk.
    const res = await engine.search('flight', { k: 10 });
    const lexical = res.hits.filter((h) => h.scores.bm25 !== undefined);
    const denseOnly = res.hits.filter((h) => h.scores.bm25 === undefined);
    expect(lexical.map((h) => h.docId)).toEqual(['travel']);
    expect(res.hits[0]!.docId).toBe('travel');
    expect(denseOnly.length).toBeGreaterThan(0);
    for (const h of denseOnly) {
      expect(h.scores.dense).toBeTypeOf('number');
      expect(h.terms).toEqual([]);
      expect(h.ranks.bm25).toBeUndefined();
      expect(h.trace.map((t) => t.stage)).toEqual(['dense', 'fusion']);
    }
  });

  it('replaces a document with the same id', async () => {
    const { engine } = await engineWith(POLICY, TRAVEL);
    const before = engine.chunkCount;
    const r = await engine.addDocument({ ...TRAVEL, text: '# Travel\n\nTrains only.\n' });
    expect(r.replaced).toBe(true);
    expect(engine.documents().map((d) => d.docId)).toEqual(['policy', 'travel']);
    expect(engine.chunkCount).toBeLessThanOrEqual(before);
    expect((await engine.search('flights')).hits.every((h) => h.docId !== 'travel' || !/flights/i.test(h.text))).toBe(
      true,
    );
  });

  it('cancelled before the document is stored: the library is unchanged; after: the document is whole, with the vectors so far', async () => {
    const { engine } = await engineWith(POLICY, TRAVEL);
    const before = engine.documents();
    const early = new AbortController();
    const pending = engine.addDocument(BIG, {
      signal: early.signal,
      onProgress: (p) => p.phase === 'chunk' && early.abort(),
    });
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(engine.documents()).toEqual(before);

    const late = new AbortController();
    const phases: string[] = [];
    const cancelled = engine.addDocument(BIG, {
      signal: late.signal,
      onProgress: (p) => {
        phases.push(p.phase);
        if (p.phase === 'embed' && p.done >= 9) late.abort();
      },
    });
    await expect(cancelled).rejects.toMatchObject({ code: 'aborted' });
    expect(phases.slice(0, 2)).toEqual(['chunk', 'index']);
    const big = engine.documents().find((d) => d.docId === 'big')!;
    expect(big.chunks).toBeGreaterThan(8);
    expect(big.vectorState).toBe('partial');
    expect(big.vectors).toBe(8); // one batch of embedBatch = 8
    // Searchable by its words right away; only embedded chunks have a dense score.
    const res = await engine.search('paragraph', { k: 100 });
    const bigHits = res.hits.filter((h) => h.docId === 'big');
    expect(bigHits).toHaveLength(big.chunks);
    expect(bigHits.filter((h) => h.scores.dense !== undefined)).toHaveLength(8);
    // fillVectors completes it.
    const filled = await engine.fillVectors();
    expect(filled).toMatchObject({ documents: 1, chunks: big.chunks - 8 });
    expect(engine.documents().find((d) => d.docId === 'big')).toMatchObject({
      vectorState: 'complete',
      vectors: big.chunks,
    });
  });

  it('guards the edges: empty library, empty query, invalid k and input', async () => {
    const empty = await engineWith();
    await expect(empty.engine.search('anything')).resolves.toMatchObject({ hits: [] });
    const { engine } = await engineWith(POLICY);
    await expect(engine.search('   ')).resolves.toMatchObject({ hits: [] });
    await expect(engine.search('week', { k: 0 })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(engine.search('week', { k: 101 })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(engine.addDocument({ ...POLICY, docId: '' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(engine.addDocument({ ...POLICY, format: 'pdf' as never })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(engine.addDocument({ ...POLICY, docId: 'blank', text: '  \n ' })).rejects.toMatchObject({
      code: 'empty_file',
    });
  });

  it('does not compare vectors of another model: after a model switch, old documents are BM25-only', async () => {
    const { engine } = await engineWith(POLICY);
    const other = new WordHashEmbedder({ id: 'other-model', yieldEvery: 2 });
    engine.setEmbedder(other);
    const res = await engine.search('days per week');
    expect(res.dense).toBe(false);
    expect(res.hits.length).toBeGreaterThan(0);
    expect(res.hits.every((h) => h.scores.dense === undefined)).toBe(true);
    await engine.addDocument(TRAVEL);
    const after = await engine.search('flights');
    expect(after.dense).toBe(true);
    expect(after.hits.filter((h) => h.scores.dense !== undefined).every((h) => h.docId === 'travel')).toBe(true);
  });

  it('embeds the heading trail with the chunk text', () => {
    expect(
      embeddingText({ headings: ['Policy', 'Limits'], text: 'Three days.' } as unknown as Parameters<
        typeof embeddingText
      >[0]),
    ).toBe('Policy › Limits\nThree days.');
    expect(embeddingText({ headings: [], text: 'Plain.' } as unknown as Parameters<typeof embeddingText>[0])).toBe(
      'Plain.',
    );
  });

  it('embeds and indexes a table chunk with its context: a later chunk of a statement matches its title', async () => {
    expect(
      embeddingText({
        headings: ['Item 8'],
        context: '(In millions)\n| | 2018 |',
        text: '| Total | 5 |',
      } as unknown as Parameters<typeof embeddingText>[0]),
    ).toBe('Item 8\n(In millions)\n| | 2018 |\n| Total | 5 |');
    // Two statements with the same row labels; only the title line above each names it.
    const statement = (title: string, scale: number): string =>
      [
        title,
        '',
        '| | 2018 | 2017 |',
        ...Array.from({ length: 30 }, (_, i) => `| Line ${i} | ${i * scale} | ${i * scale + 1} |`),
        `| Total liabilities | ${scale} | ${scale + 1} |`,
      ].join('\n');
    const { engine } = await engineWith({
      docId: 'filing',
      title: 'Annual report',
      format: 'markdown',
      text: `# Financial statements\n\n${statement('Statement of operations', 3)}\n\n${statement('Consolidated balance sheet', 7)}\n`,
    });
    const res = await engine.search('balance sheet total liabilities', { k: 3 });
    const top = res.hits[0]!;
    expect(top.text).toContain('| Total liabilities | 7 | 8 |');
    expect(top.text).not.toContain('balance sheet');
    expect(top.terms.map((t) => t.term)).toEqual(expect.arrayContaining(['balanc', 'sheet']));
    // The column header's period labels are read by the embedder, not matched by BM25 on every row.
    const byYear = await engine.search('2017', { k: 3 });
    const lexical = byYear.hits.filter((h) => h.scores.bm25 !== undefined);
    expect(lexical.length).toBeGreaterThan(0);
    expect(lexical.every((h) => h.text.includes('| | 2018 | 2017 |'))).toBe(true);
  });

  it('keeps BM25 up to date incrementally with the same results as a build over the library', async () => {
    // Few words and a few texts and titles shared by many documents: many equal scores, so the
    // order of ties (earlier-indexed first) is checked too.
    const rand = mulberry32(5);
    const words = ['leave', 'travel', 'remote', 'days', 'allowance', 'desk', 'meals', 'policy', 'week', 'budget'];
    const sentence = (): string => Array.from({ length: 6 }, () => words[Math.floor(rand() * words.length)]).join(' ');
    const texts = Array.from({ length: 2 }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `${sentence()}.`).join('\n\n'),
    );
    const titles = ['Travel', 'Leave'];
    const any = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const input = (id: string): AddDocumentInput => ({
      docId: id,
      title: any(titles),
      format: 'text',
      text: any(texts),
    });
    const { engine } = await engineWith();
    const lexical = (r: SearchResponse): unknown[] =>
      r.hits
        .filter((h) => h.ranks.bm25 !== undefined)
        .sort((a, b) => a.ranks.bm25! - b.ranks.bm25!)
        .map((h) => [h.chunkId, h.scores.bm25]);
    const updates = new Set<string | null>();
    let next = 0;
    for (let step = 0; step < 40; step++) {
      const ids = engine.documents().map((d) => d.docId);
      const pick = (): string => ids[Math.floor(rand() * ids.length)]!;
      const op = ids.length < 2 ? 0 : Math.floor(rand() * 5);
      if (op === 0) await engine.addDocument(input(`d${next++}`));
      else if (op === 1) await engine.addDocument(input(pick()));
      else if (op === 2) await engine.deleteDocument(pick());
      else if (op === 3) await engine.updateMeta(pick(), { title: any(titles) });
      else await engine.addDocuments([input(`d${next++}`), input(pick()), input(`d${next++}`)]);
      for (const q of ['travel days', 'remote desk allowance', 'policy week budget leave']) {
        const got = lexical(await engine.search(q, { k: 100 }));
        updates.add(engine.lexicalUpdate);
        // A fresh engine on the same documents and chunks builds its index from scratch.
        const fresh = new Engine();
        const view = engine.selectionView(engine.documents().map((d) => d.docId));
        fresh.load(
          engine.documents().map((d) => engine.documentChunks(d.docId)!.meta),
          [...view.chunks.values()],
        );
        expect(fresh.lexicalUpdate).toBe('built');
        expect(got, `step ${step}, "${q}"`).toEqual(lexical(await fresh.search(q, { k: 100 })));
      }
    }
    expect(engine.chunkCount).toBeLessThan(100);
    expect([...updates]).toEqual(expect.arrayContaining(['updated', 'built']));
  });

  it('removing a document cancels its embedding in flight; the queue goes on with the next', async () => {
    const engine = new Engine({ embedBatch: 8 });
    // Its first batch passes; the next call waits until cancelled (a long embedding in flight).
    const embedder = new HoldingEmbedder();
    engine.setEmbedder(embedder);
    const first = await engine.stageDocument(BIG);
    const second = await engine.stageDocument({ ...BIG, docId: 'big2', title: 'Big 2' });
    await until(() => embedder.held);
    expect(engine.document('big')).toMatchObject({ vectors: 8 });
    expect(engine.embedding.docId).toBe('big');
    embedder.holdFrom = Infinity;
    expect(await engine.deleteDocument('big')).toBe(true);
    // Settles without an error (nothing is left to embed), before its chunks were all embedded.
    await expect(first.embedded).resolves.toMatchObject({ docId: 'big' });
    await second.embedded;
    expect(engine.documents()).toEqual([expect.objectContaining({ docId: 'big2', vectorState: 'complete' })]);
    expect(engine.embedding.docId).toBeNull();
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(check()).toBe(true);
}

/** The hashed embedder, whose calls from the `holdFrom`-th on wait until their signal aborts. */
class HoldingEmbedder extends WordHashEmbedder {
  holdFrom = 1;
  held = false;
  private count = 0;
  override async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array> {
    if (options.kind !== 'query' && this.count++ >= this.holdFrom) {
      this.held = true;
      await new Promise<never>((_resolve, reject) =>
        options.signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Cancelled.'))),
      );
    }
    return super.embed(texts, options);
  }
}
