/**
 * What the evaluation and fitting command lines share: the entry-point guard with errors a user
 * can act on, strict argument parsing with `--help`, JSONL reading, rewriting a fitted constant in
 * a source file, the threshold grid of the fits, and plain-text tables.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EvidentError } from '../core/errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Strict `parseArgs` over `argv` with a `--help` flag added. Prints `usage` and returns null on
 * `--help` or when a `required` option is missing (the caller exits 0 or 2: see `usageExit`).
 */
export function parseCli<const O extends Options>(
  argv: readonly string[],
  options: O,
  usage: string,
  required: readonly (keyof O & string)[] = [],
) {
  const { values } = parseArgs({
    args: [...argv],
    options: { ...options, help: { type: 'boolean', default: false } } as O & {
      help: { type: 'boolean'; default: false };
    },
    strict: true,
  });
  const v = values as Record<string, unknown>;
  if (v.help === true || required.some((k) => v[k] === undefined)) {
    console.log(`usage: ${usage}`);
    return { values, ok: false as const, exit: v.help === true ? 0 : 2 };
  }
  return { values, ok: true as const, exit: 0 };
}

/**
 * The one entry-point runner of the command lines: runs `main` with the arguments when this module
 * is the process entry point (`metaUrl` is the caller's `import.meta.url`) and exits with the code
 * it returns (0 when it returns nothing). A thrown `EvidentError` prints as "code: message", any
 * other error as itself, and exits with `failureCode` (default 1; 2 where a failure means the
 * command could not run at all, e.g. a missing dataset).
 */
export function runIfMain(
  metaUrl: string,
  main: (argv: string[]) => Promise<number | void>,
  { failureCode = 1 }: { readonly failureCode?: number } = {},
): void {
  if (metaUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  main(process.argv.slice(2)).then(
    (code) => process.exit(code ?? 0),
    (err: unknown) => {
      console.error(err instanceof EvidentError ? `${err.code}: ${err.message}` : err);
      process.exit(failureCode);
    },
  );
}

/**
 * The end of a benchmark command: the reason it could not run (exit 2), or its table, and the
 * result as JSON to `json` when asked. Returns the exit code.
 */
export async function reportBenchResult<T>(
  res: T | string,
  table: (r: T) => string,
  json: string | undefined,
): Promise<number> {
  if (typeof res === 'string') {
    console.log(res);
    return 2;
  }
  console.log(`\n${table(res)}`);
  if (json) {
    await writeFile(json, JSON.stringify(res, null, 2));
    console.log(`wrote ${json}`);
  }
  return 0;
}

/** The rows of a JSON-lines file; a missing file is `dataset_missing`, a bad line `invalid_input`. */
export async function readJsonl<T>(file: string, what = 'Dataset'): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new EvidentError('dataset_missing', `${what} file not found: ${file}. Mount ../shared or pass --dataset.`);
  }
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      throw new EvidentError('invalid_input', `${file}:${i + 1} is not valid JSON.`);
    }
  });
  return out;
}

/** Replaces the one match of `re` in `file` with `replacement` (the `--write` of the fitting scripts). */
export async function rewriteInFile(file: string, re: RegExp, replacement: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!re.test(text)) throw new EvidentError('invalid_input', `${file} has nothing matching ${re} to rewrite.`);
  // Written in the project's style (the lint step checks it), with its Prettier configuration.
  const prettier = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(
    file,
    await prettier.format(
      text.replace(re, () => replacement),
      { ...config, filepath: file },
    ),
  );
}

/** The threshold grid of the fits: 0.05, 0.10, …, 0.95. */
export const THRESHOLD_GRID: readonly number[] = Array.from({ length: 19 }, (_, k) => (k + 1) / 20);

/** The grid value with the highest `utility` (the lowest one on a tie). */
export function bestOnGrid(utility: (t: number) => number): number {
  let best = THRESHOLD_GRID[0] as number;
  let bestU = -Infinity;
  for (const t of THRESHOLD_GRID) {
    const u = utility(t);
    if (u > bestU + 1e-12) {
      best = t;
      bestU = u;
    }
  }
  return best;
}

/** A share as a percentage with one decimal. */
export const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** A plain-text table: the first column left-aligned, the others right-aligned, two spaces apart. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
