/**
 * The answers benchmark end to end on a folder written here (no shared data): the dataset
 * format with `docs/` and `docs.json`, question selection, grading wired to what the user reads,
 * the evidence hit, the report and `--json`, and the `npm run eval -- --answers` command line.
 * What the answerer says is not asserted (another stage owns it); how it is counted is.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import { gradeAnswer } from './answers-grade';
import {
  answersCounts,
  answersJson,
  formatAnswers,
  loadAnswersDataset,
  resolveDocPath,
  runAnswers,
  selectQuestions,
  type AnswersReport,
} from './answers';

const FILING = `# When to file

Individuals who received wages file Form 1040NR by April 15, 2008.

If the regular due date for filing falls on a Saturday, Sunday, or legal holiday, file by the next business day.

## Extension of time to file

If you cannot file your return by the due date, you should file Form 4868. You must file Form 4868 by the regular due date of the return.
`;

const SALES = `# Net sales by contract type

Total sales were $1,496.5 million in 2019, $1,202.9 million in 2018 and $1,107.7 million in 2017.

Substantially all of our contracts are fixed-price type contracts.
`;

const QUESTIONS = [
  {
    id: 'q1',
    doc: 'filing',
    question: 'If the regular due date falls on a Saturday, when should you file?',
    answer: 'next business day',
    type: 'span',
  },
  {
    id: 'q2',
    doc: 'sales',
    question: 'What were total sales in 2019?',
    answer: '$1,496.5',
    scale: 'million',
    type: 'span',
  },
  {
    id: 'q3',
    doc: 'filing',
    question: 'Which form do you file to get an extension of time to file?',
    answer: 'Form 4868',
    type: 'span',
  },
  {
    id: 'q4',
    doc: 'filing',
    question: 'What is the boiling point of mercury in kelvin?',
    answer: null,
    type: 'unanswerable',
  },
];

let root: string;
let dir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'evident-answers-'));
  dir = path.join(root, 'set');
  await mkdir(path.join(dir, 'docs'), { recursive: true });
  await mkdir(path.join(root, 'elsewhere'));
  await writeFile(path.join(dir, 'docs', 'filing.md'), FILING);
  // One document is not in docs/: docs.json points at it, as benchmarks/testdocs-qa does.
  await writeFile(path.join(root, 'elsewhere', 'sales.md'), SALES);
  await writeFile(path.join(dir, 'docs.json'), JSON.stringify({ sales: path.join(root, 'elsewhere', 'sales.md') }));
  await writeFile(path.join(dir, 'questions.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the dataset folder', () => {
  it('reads questions, docs/ and docs.json', async () => {
    const { questions, files } = await loadAnswersDataset(dir);
    expect(questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(questions[3]!.answer).toBeNull();
    expect(questions[1]!.scale).toBe('million');
    expect(files.get('filing')).toBe(path.join(dir, 'docs', 'filing.md'));
    expect(files.get('sales')).toBe(path.join(root, 'elsewhere', 'sales.md'));
  });

  it('names a docs.json file that is not there', async () => {
    const broken = path.join(root, 'broken');
    await mkdir(broken, { recursive: true });
    await writeFile(path.join(broken, 'questions.jsonl'), JSON.stringify(QUESTIONS[1]) + '\n');
    await writeFile(path.join(broken, 'docs.json'), JSON.stringify({ sales: path.join(root, 'nowhere.md') }));
    await expect(loadAnswersDataset(broken)).rejects.toThrow(/nowhere\.md/);
    await expect(loadAnswersDataset(broken)).rejects.toBeInstanceOf(EvidentError);
  });

  it('rejects a question without an answer field (null is the way to say unanswerable)', async () => {
    const bad = path.join(root, 'bad');
    await mkdir(path.join(bad, 'docs'), { recursive: true });
    await writeFile(path.join(bad, 'questions.jsonl'), JSON.stringify({ doc: 'x', question: 'Why?' }) + '\n');
    await expect(loadAnswersDataset(bad)).rejects.toThrow(/line 1: "answer"/);
  });

  it('resolves docs.json paths against the repository root, ../shared under the shared root', () => {
    expect(resolveDocPath('docs/a.pdf', '/repo')).toBe(path.resolve('/repo', 'docs/a.pdf'));
    expect(resolveDocPath('/abs/a.pdf', '/repo')).toBe('/abs/a.pdf');
    const before = process.env.EVIDENT_SHARED;
    process.env.EVIDENT_SHARED = '/data/shared';
    try {
      expect(resolveDocPath('../shared/testdocs/good/a.pdf', '/repo')).toBe('/data/shared/testdocs/good/a.pdf');
    } finally {
      if (before === undefined) delete process.env.EVIDENT_SHARED;
      else process.env.EVIDENT_SHARED = before;
    }
  });

  it('--every n takes the 1st, n+1-th, … question; --limit the first of those', () => {
    const xs = [0, 1, 2, 3, 4, 5, 6];
    expect(selectQuestions(xs, 3)).toEqual([0, 3, 6]);
    expect(selectQuestions(xs, 3, 2)).toEqual([0, 3]);
    expect(selectQuestions(xs, 1, 2)).toEqual([0, 1]);
    expect(selectQuestions(xs)).toEqual(xs);
  });
});

describe('a run, keywords only', () => {
  let report: AnswersReport;
  beforeAll(async () => {
    report = await runAnswers(dir, { lexicalOnly: true });
  });

  it('asks every question once and counts each in exactly one column', () => {
    expect(report.questions.map((r) => r.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    const c = answersCounts(report.questions);
    expect(c.right + c.wrong + c.refused + c.evidenced).toBe(4);
    expect(c.refused_with_evidence).toBeLessThanOrEqual(Math.min(c.refused, c.evidence_hit));
  });

  it('refused is exactly abstain or conflict, and the grade is that of what the user reads', () => {
    const { questions } = report;
    for (const r of questions) {
      expect(r.grade === 'refused').toBe(r.outcome === 'abstain' || r.outcome === 'conflict');
      expect(r.read).not.toMatch(/\[S\d+/);
      const q = QUESTIONS.find((x) => x.id === r.id)!;
      const gold = { answer: q.answer, type: q.type, ...(q.scale ? { scale: q.scale } : {}) };
      expect(gradeAnswer(gold, r.released ? { read: r.read, citesGoldPage: false } : null).grade).toBe(r.grade);
    }
  });

  it('the unanswerable question is never right and has no evidence', () => {
    const q4 = report.questions.find((r) => r.id === 'q4')!;
    expect(q4.grade).not.toBe('right');
    expect(q4.evidenceHit).toBe(false);
  });

  it('the packet of a one-passage document holds its gold span (evidence hit)', () => {
    expect(report.questions.find((r) => r.id === 'q2')!.evidenceHit).toBe(true);
    expect(report.questions.find((r) => r.id === 'q3')!.evidenceHit).toBe(true);
  });

  it('prints a row per corpus, per type and per document, and writes configs[].metrics as shares', () => {
    const table = formatAnswers(report);
    expect(table).toMatch(/^all\s+4\s/m);
    expect(table).toMatch(/^type span\s+3\s/m);
    expect(table).toMatch(/^type unanswerable\s+1\s/m);
    expect(table).toMatch(/^doc sales\s+1\s/m);
    expect(table).toMatch(/s per question/);
    const json = answersJson(report) as { configs: { name: string; metrics: Record<string, number> }[] };
    const m = json.configs[0]!.metrics;
    expect(json.configs[0]!.name).toBe('default');
    expect(m.questions).toBe(4);
    for (const k of ['right', 'wrong', 'refused', 'evidence_hit', 'refused_with_evidence']) {
      expect(m[k]).toBeGreaterThanOrEqual(0);
      expect(m[k]).toBeLessThanOrEqual(1);
    }
    expect(m.right! + m.wrong! + m.refused! + m.evidenced!).toBeCloseTo(1, 9);
  });
});

describe('the command line', () => {
  it('npm run eval -- --answers --every 2 --json: two questions, the JSON the table reports', async () => {
    const out = path.join(root, 'out.json');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/eval.ts',
        '--dataset',
        dir,
        '--answers',
        '--lexical-only',
        '--every',
        '2',
        '--json',
        out,
      ],
      { cwd: path.resolve(import.meta.dirname, '../..'), timeout: 120_000 },
    );
    expect(stdout).toMatch(/set: 2 questions \(1 in 2\)/);
    const json = JSON.parse(await readFile(out, 'utf8')) as {
      every: number;
      configs: { metrics: { questions: number } }[];
      questions: { id: string }[];
    };
    expect(json.every).toBe(2);
    expect(json.configs[0]!.metrics.questions).toBe(2);
    expect(json.questions.map((q) => q.id)).toEqual(['q1', 'q3']);
  });
});
