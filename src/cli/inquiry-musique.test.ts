import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateMusique } from './inquiry-musique';

/** A two-hop question whose second paragraph is found only through the name the first introduces. */
async function tinyMultiHop(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evident-musique-'));
  const docs = [
    {
      _id: 'album',
      title: 'Harbour Lights',
      text: 'Harbour Lights is an album by the Orin Quartet. It was recorded in 1958 for Velvet Lantern Records.',
    },
    {
      _id: 'label',
      title: 'Velvet Lantern Records',
      text: 'Velvet Lantern Records was founded in Tromsø in 1961 by Ada Fenn.',
    },
    {
      _id: 'other1',
      title: 'Quartet',
      text: 'A quartet is a group of four musicians; the album format became common in the 1950s.',
    },
    { _id: 'other2', title: 'Records', text: 'Records of the harbour are kept by the port office.' },
  ];
  await writeFile(path.join(dir, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
  const query = {
    _id: 'q1',
    text: 'In which city was the label of the album Harbour Lights founded?',
    answer: 'Tromsø',
    hops: 2,
  };
  await writeFile(path.join(dir, 'queries.jsonl'), JSON.stringify(query));
  await mkdir(path.join(dir, 'qrels'));
  await writeFile(path.join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\talbum\t1\nq1\tlabel\t1\n');
  return dir;
}

describe('evaluateMusique', () => {
  it('scores every policy per hop count, single-shot at the matched budget, the loop within it', async () => {
    const report = await evaluateMusique(await tinyMultiHop(), { first: 1, budget: 1, topR: 2 });
    const row = (policy: string, hops: string) => report.rows.find((r) => r.policy === policy && r.hops === hops)!;
    // Matched budget 1 + 1 × 2 = 3 paragraphs for the single shot.
    expect(row('single-shot', 'all').passages).toBe(3);
    expect(row('single-shot', '2').questions).toBe(1);
    expect(row('single-shot', '3-4').questions).toBe(0);
    // Every policy holds the matched budget too: rounds read past held paragraphs, unspent budget goes
    // to the first retrieval's next ones (this corpus has only 4 paragraphs, so 3 is reachable).
    for (const policy of ['repeat', 'expansion', 'premise']) expect(row(policy, 'all').passages).toBe(3);
    // The premise-directed loop follows the name the first paragraph introduces beyond its heading to the label's page.
    expect(row('premise', 'all')).toMatchObject({ allGold: 1, goldRecall: 1 });
  });
});
