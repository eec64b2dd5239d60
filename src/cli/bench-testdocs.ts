/**
 * `npm run bench -- --testdocs` — how long each file of ../shared/testdocs takes to parse and
 * chunk in Node (`ingestBytes`, the app's path), beside a baseline measured in the same run: the
 * USE tokenizer counting the file's extracted text once, the least any chunking of that text can
 * cost. The behaviour of each file is asserted in src/parse/testdocs.test.ts; timings live here
 * (benchmarks are not tests). Files that end in an error are timed to the error.
 *
 *   npm run bench -- --testdocs [--runs 3]
 */
import { readdir, readFile } from 'node:fs/promises';
import { EvidentError } from '../core/errors';
import { sharedPath } from '../node/shared-data';
import { ingestBytes, loadUseTokenizer } from './ingest';

/** The budget the behaviour test once asserted per file; a row over it is marked. */
export const TESTDOCS_BUDGET_MS = 10_000;

export interface TestdocsRow {
  readonly file: string;
  readonly bytes: number;
  /** The error code when the file does not ingest (bad/ files mostly). */
  readonly outcome: string;
  readonly characters: number;
  readonly chunks: number;
  /** Median over the runs of parse + chunk. */
  readonly ingestMs: number;
  /** Median over the runs of one token count over the extracted text. */
  readonly tokenizeMs: number;
}

export interface TestdocsResult {
  readonly runs: number;
  readonly rows: readonly TestdocsRow[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[(sorted.length - 1) >> 1] as number) + (sorted[sorted.length >> 1] as number)) / 2;
}

/** Every file under good/ and bad/, `runs` times each; a string says why it cannot run. */
export async function runTestdocsBench(runs: number, log: (msg: string) => void): Promise<TestdocsResult | string> {
  let names: string[];
  try {
    names = (
      await Promise.all(
        ['good', 'bad'].map(async (dir) =>
          (await readdir(sharedPath('testdocs', dir))).filter((n) => !n.startsWith('.')).map((n) => `${dir}/${n}`),
        ),
      )
    ).flat();
  } catch {
    return `testdocs: ${sharedPath('testdocs')} is missing; mount ../shared to run this section.`;
  }
  const tokenizer = await loadUseTokenizer();
  const count = (text: string): number => tokenizer.count(text);
  const rows: TestdocsRow[] = [];
  for (const file of names) {
    log(`testdocs: ${file}`);
    const bytes = new Uint8Array(await readFile(sharedPath('testdocs', file)));
    const ingestTimes: number[] = [];
    const tokenizeTimes: number[] = [];
    let outcome = 'ok';
    let characters = 0;
    let chunks = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      try {
        const result = await ingestBytes(bytes, file, count);
        ingestTimes.push(performance.now() - started);
        characters = result.parsed.text.length;
        chunks = result.chunks.length;
        const tokenizeStarted = performance.now();
        count(result.parsed.text);
        tokenizeTimes.push(performance.now() - tokenizeStarted);
      } catch (err) {
        ingestTimes.push(performance.now() - started);
        outcome = err instanceof EvidentError ? err.code : String(err);
      }
    }
    rows.push({
      file,
      bytes: bytes.length,
      outcome,
      characters,
      chunks,
      ingestMs: median(ingestTimes),
      tokenizeMs: tokenizeTimes.length > 0 ? median(tokenizeTimes) : NaN,
    });
  }
  return { runs, rows };
}

/** A Markdown table: one row per file, slowest first. */
export function testdocsTable(result: TestdocsResult): string {
  const ms = (value: number): string => (Number.isNaN(value) ? '—' : `${value.toFixed(0)} ms`);
  const out = [
    `parse + chunk per file of ../shared/testdocs in Node (median of ${result.runs}; baseline: one token count of the extracted text)`,
    '| file | size | outcome | characters | chunks | parse + chunk | baseline | over 10 s |',
    '|---|---:|---|---:|---:|---:|---:|---|',
  ];
  for (const row of [...result.rows].sort((a, b) => b.ingestMs - a.ingestMs)) {
    out.push(
      `| ${row.file} | ${(row.bytes / 1024).toFixed(0)} KiB | ${row.outcome} | ${row.characters.toLocaleString('en')} | ${row.chunks} | ${ms(row.ingestMs)} | ${ms(row.tokenizeMs)} | ${row.ingestMs > TESTDOCS_BUDGET_MS ? 'yes' : ''} |`,
    );
  }
  return out.join('\n');
}
