/**
 * A tiny BEIR-format dataset the tests write themselves (the browser benchmark's unit and
 * end-to-end tests): fifteen short documents, eight queries, graded judgments (one grade 0).
 * Some queries share words with their relevant documents, some only paraphrase them, and some
 * documents share a query's words without answering it, so the configurations disagree.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface BeirFixture {
  readonly corpus: readonly { readonly _id: string; readonly title: string; readonly text: string }[];
  readonly queries: readonly { readonly _id: string; readonly text: string }[];
  /** [query-id, corpus-id, grade] */
  readonly qrels: readonly (readonly [string, string, number])[];
}

export const TINY_BEIR: BeirFixture = {
  corpus: [
    {
      _id: 'd1',
      title: 'Measles vaccination',
      text: 'Two doses of the measles vaccine protect about 97 percent of children. Outbreaks start where vaccination coverage drops below 95 percent.',
    },
    {
      _id: 'd2',
      title: 'Rooftop solar panels',
      text: 'A rooftop solar array produces most of its energy around noon. Batteries store the surplus for the evening peak.',
    },
    {
      _id: 'd3',
      title: 'Coffee and sleep',
      text: 'Caffeine has a half-life of about five hours, so an afternoon coffee can delay falling asleep at night.',
    },
    {
      _id: 'd4',
      title: 'Suspension bridges',
      text: 'The deck of a suspension bridge hangs from vertical cables attached to two main cables anchored at each end.',
    },
    {
      _id: 'd5',
      title: 'River flooding',
      text: 'Heavy rain upstream raises the river within hours; wetlands slow the water and reduce the flood peak downstream.',
    },
    {
      _id: 'd6',
      title: 'Immunity after infection',
      text: 'People who recovered from measles keep lifelong immunity, but the infection can erase the memory of earlier immunity to other diseases.',
    },
    {
      _id: 'd7',
      title: 'Night shifts',
      text: 'Working at night disturbs the body clock; shift workers sleep less and report more fatigue than day workers.',
    },
    {
      _id: 'd8',
      title: 'Home batteries',
      text: 'A home battery charged by photovoltaic modules during the day can power the house after sunset.',
    },
    {
      _id: 'd9',
      title: 'Bread baking',
      text: 'Yeast ferments the sugars in dough and releases carbon dioxide, which makes the bread rise before it is baked.',
    },
    {
      _id: 'd10',
      title: 'Bridge inspections',
      text: 'Engineers inspect the cables of large bridges for corrosion, since a broken wire weakens the whole cable.',
    },
    {
      _id: 'd11',
      title: 'Urban heat',
      text: 'Cities are warmer than the countryside at night because asphalt and concrete release the heat they stored during the day.',
    },
    {
      _id: 'd12',
      title: 'Tea and caffeine',
      text: 'A cup of black tea holds roughly half the caffeine of a cup of coffee.',
    },
    {
      _id: 'd13',
      title: 'Evening electricity prices',
      text: 'Power is most expensive in the evening, when demand peaks and solar output has faded.',
    },
    {
      _id: 'd14',
      title: 'Wetland birds',
      text: 'Herons and ducks nest in wetlands, which also help many species survive dry summers.',
    },
    {
      _id: 'd15',
      title: 'Coffee roasting',
      text: 'Dark roasts taste more bitter, but a cup of dark roast coffee holds slightly less caffeine than a light roast.',
    },
  ],
  queries: [
    { _id: 'q1', text: 'How well does the measles vaccine protect children?' },
    { _id: 'q2', text: 'Can solar power be used in the evening?' },
    { _id: 'q3', text: 'Why does drinking coffee late make it hard to sleep?' },
    { _id: 'q4', text: 'What holds up the deck of a suspension bridge?' },
    { _id: 'q5', text: 'How do wetlands help against floods?' },
    { _id: 'q6', text: 'Does working nights affect how much people sleep?' },
    { _id: 'q7', text: 'Which drink has less caffeine than coffee?' },
    { _id: 'q8', text: 'Why is it hotter in town after dark?' },
  ],
  qrels: [
    ['q1', 'd1', 2],
    ['q1', 'd6', 1],
    ['q2', 'd2', 2],
    ['q2', 'd8', 2],
    ['q3', 'd3', 2],
    ['q3', 'd12', 1],
    ['q4', 'd4', 2],
    ['q4', 'd10', 1],
    ['q5', 'd5', 2],
    ['q6', 'd7', 2],
    ['q6', 'd3', 0],
    ['q7', 'd12', 2],
    ['q8', 'd11', 2],
  ],
};

/** The three files' texts, as a BEIR folder holds them. */
export function beirFiles(data: BeirFixture = TINY_BEIR): {
  corpus: string;
  queries: string;
  qrels: string;
} {
  const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return {
    corpus: jsonl(data.corpus),
    queries: jsonl(data.queries),
    qrels: ['query-id\tcorpus-id\tscore', ...data.qrels.map((r) => r.join('\t'))].join('\n') + '\n',
  };
}

/** Writes `corpus.jsonl`, `queries.jsonl` and `qrels/test.tsv` into `dir`. */
export async function writeBeir(dir: string, data: BeirFixture = TINY_BEIR): Promise<void> {
  const files = beirFiles(data);
  await mkdir(join(dir, 'qrels'), { recursive: true });
  await writeFile(join(dir, 'corpus.jsonl'), files.corpus);
  await writeFile(join(dir, 'queries.jsonl'), files.queries);
  await writeFile(join(dir, 'qrels', 'test.tsv'), files.qrels);
}
