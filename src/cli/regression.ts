/**
 * The pinned regression matrix (`test/regression.json`): expected value per dataset × split ×
 * config × metric, graded ok / okish / fail the way Anserini's and Pyserini's reproduction
 * matrices ("2CR") grade a re-run:
 * - ok:    |actual − expected| ≤ tolerance
 * - okish: |actual − expected| ≤ OKISH_FACTOR × tolerance (drifted a little: look, re-pin)
 * - fail:  farther than that, or outside the entry's hard floor/ceiling (`min` / `max`, the
 *          project's quality targets), which no tolerance can excuse.
 */
import { readFile } from 'node:fs/promises';
import { EvidentError } from '../core/errors';
import { METRIC_NAMES, type MetricName, type MetricValues } from '../core/eval/metrics';

/** The okish band is this many tolerances wide. */
export const OKISH_FACTOR = 3;

export interface RegressionEntry {
  readonly expected: number;
  readonly tolerance: number;
  /** Hard floor: below it the run fails whatever the tolerance. */
  readonly min?: number;
  /** Hard ceiling (for "within x ± y" targets). */
  readonly max?: number;
}

/** dataset → split → config → metric → entry. */
export interface RegressionFile {
  readonly version: 1;
  readonly notes?: readonly string[];
  readonly datasets: Readonly<
    Record<string, Readonly<Record<string, Readonly<Record<string, Partial<Record<MetricName, RegressionEntry>>>>>>>
  >;
}

export type Grade = 'ok' | 'okish' | 'fail';

export interface GradedMetric {
  readonly config: string;
  readonly metric: MetricName;
  readonly actual: number;
  readonly entry: RegressionEntry;
  readonly grade: Grade;
  readonly why: string;
}

export function gradeOne(actual: number, entry: RegressionEntry): { grade: Grade; why: string } {
  if (!Number.isFinite(actual)) return { grade: 'fail', why: 'not a number' };
  if (entry.min !== undefined && actual < entry.min) return { grade: 'fail', why: `below the floor ${entry.min}` };
  if (entry.max !== undefined && actual > entry.max) return { grade: 'fail', why: `above the ceiling ${entry.max}` };
  const delta = Math.abs(actual - entry.expected);
  if (delta <= entry.tolerance + 1e-12) return { grade: 'ok', why: `|Δ| ${delta.toFixed(4)} ≤ ${entry.tolerance}` };
  if (delta <= OKISH_FACTOR * entry.tolerance)
    return { grade: 'okish', why: `|Δ| ${delta.toFixed(4)} ≤ ${OKISH_FACTOR}×${entry.tolerance}` };
  return { grade: 'fail', why: `|Δ| ${delta.toFixed(4)} > ${OKISH_FACTOR}×${entry.tolerance}` };
}

/** Grades every pinned metric of the configs that were run. */
export function gradeRun(
  file: RegressionFile,
  dataset: string,
  split: string,
  results: readonly { name: string; metrics: MetricValues }[],
): GradedMetric[] {
  const pinned = file.datasets[dataset]?.[split] ?? {};
  const out: GradedMetric[] = [];
  for (const { name, metrics } of results) {
    const entries = pinned[name];
    if (!entries) continue;
    for (const metric of METRIC_NAMES) {
      const entry = entries[metric];
      if (!entry) continue;
      out.push({ config: name, metric, actual: metrics[metric], entry, ...gradeOne(metrics[metric], entry) });
    }
  }
  return out;
}

/** Configs pinned for a dataset split (what `--check` runs when no `--config` is given). */
export function pinnedConfigs(file: RegressionFile, dataset: string, split: string): string[] {
  return Object.keys(file.datasets[dataset]?.[split] ?? {});
}

export async function readRegressionFile(file: string): Promise<RegressionFile> {
  let parsed: RegressionFile;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as RegressionFile;
  } catch (err) {
    throw new EvidentError('invalid_input', `Cannot read the regression file ${file}: ${(err as Error).message}`);
  }
  if (parsed.version !== 1)
    throw new EvidentError('invalid_input', `${file}: unknown regression file version ${String(parsed.version)}.`);
  return parsed;
}
