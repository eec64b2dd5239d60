import { describe, expect, it } from 'vitest';
import { CONTRACT_CORPUS, CONTRACT_QUESTION } from '../core/inquiry/testing';
import { ask } from './ask';
import { Engine } from './engine';
import { SettingsHost } from './settings';
import { keywordsOnlyEmbedder } from '../cli/docqa';

/** The supply-contract world as a user's library: one document a record. */
async function library(ids: readonly string[]): Promise<Engine> {
  const engine = new Engine({ vectors: false });
  engine.setEmbedder(await keywordsOnlyEmbedder());
  for (const r of CONTRACT_CORPUS.filter((x) => ids.includes(x.id))) {
    await engine.addDocument({ docId: r.id, title: r.title, text: r.text, format: 'text' });
  }
  return engine;
}

describe('ask: a question inquiry settles', () => {
  it('answers from the binding records the follow-up queries found, cited, and keeps the first pass', async () => {
    const engine = await library(CONTRACT_CORPUS.map((r) => r.id));
    const result = await ask({ engine, settings: new SettingsHost(() => null) }, CONTRACT_QUESTION);
    expect(result.inquiry?.triggered).toBe(true);
    expect(result.inquiry?.release.released).toBe(true);
    expect(result.outcome).toBe('supported');
    expect(result.firstPass).not.toBeNull();
    expect(result.firstPass?.outcome).not.toBe('supported');
    expect(result.answer.answerer).toBe('inquiry');
    expect(result.answer.text).toMatch(/net 30 days/);
    expect(result.answer.text).toMatch(/euros/);
    expect(result.answer.text).not.toMatch(/90 days|dollars/);
    // Every sentence cites a source that holds it verbatim.
    for (const s of result.answer.sentences) {
      const source = result.sources.find((x) => x.citationId === s.citationIds[0]);
      expect(source?.text).toContain(s.text);
    }
    const cited = result.answer.sentences.map(
      (s) => result.sources.find((x) => x.citationId === s.citationIds[0])?.docId,
    );
    expect(new Set(cited)).toEqual(new Set(['agreement', 'schedule']));
    // The reason names the records by title and citation, never by internal ids.
    expect(result.reason).toMatch(/“Agreement” \[S\d+\], then “Schedule” \[S\d+\]/);
    expect(result.reason).not.toMatch(/#/);
  });

  it('runs no follow-up search when the user set the budget to 0, and says why it would have', async () => {
    const engine = await library(CONTRACT_CORPUS.map((r) => r.id));
    const settings = new SettingsHost(() => null);
    await settings.update({ values: { inquiry: { budget: 0, topR: 3 } } });
    const result = await ask({ engine, settings }, CONTRACT_QUESTION);
    expect(result.inquiry?.triggered).toBe(false);
    expect(result.inquiry?.rounds).toEqual([]);
    expect(result.inquiry?.trigger.length).toBeGreaterThan(0);
    expect(result.firstPass ?? null).toBeNull();
    expect(result.outcome).not.toBe('supported');
  });

  it('leaves the first answer when the binding record is not in the library', async () => {
    const engine = await library(CONTRACT_CORPUS.filter((r) => r.id !== 'schedule').map((r) => r.id));
    const result = await ask({ engine, settings: new SettingsHost(() => null) }, CONTRACT_QUESTION);
    expect(result.inquiry?.release.released).toBe(false);
    expect(result.firstPass ?? null).toBeNull();
    expect(result.answer.answerer).not.toBe('inquiry');
    expect(result.outcome).not.toBe('supported');
  });
});
