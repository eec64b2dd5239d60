/**
 * Access to the shared test data that lives beside the checkout (`../shared`: datasets/, testdocs/).
 * It is never copied into the repository. Suites that need it use `describeShared`, which skips
 * with a printed notice when the data is missing, and fails instead when `REQUIRE_SHARED=1`
 * (CI sets it so a missing mount cannot turn the suite green).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';

/** Root of the shared data: `$EVIDENT_SHARED` when set, else `../shared` from the working directory. */
export function sharedRoot(): string {
  return path.resolve(process.env.EVIDENT_SHARED ?? path.resolve(process.cwd(), '../shared'));
}

/** Absolute path inside the shared data, e.g. `sharedPath('datasets', 'scifact', 'corpus.jsonl')`. */
export function sharedPath(...parts: string[]): string {
  return path.join(sharedRoot(), ...parts);
}

/** True when `REQUIRE_SHARED=1`: missing shared data is then a failure, not a skip. */
export function sharedRequired(): boolean {
  return process.env.REQUIRE_SHARED === '1';
}

/**
 * `describe` for a suite that needs files under the shared root. `needs` are paths relative to it
 * (default: the root itself). When one is missing the suite is skipped with a console notice, or,
 * under `REQUIRE_SHARED=1`, replaced by a failing test naming what is missing.
 */
export function describeShared(name: string, needs: readonly string[] | string, fn: () => void): void {
  const wanted = typeof needs === 'string' ? [needs] : needs.length > 0 ? needs : ['.'];
  const missing = wanted.map((p) => sharedPath(p)).filter((p) => !existsSync(p));
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  const what = `shared data missing for "${name}": ${missing.join(', ')}`;
  if (sharedRequired()) {
    describe(name, () => {
      it('has its shared data (REQUIRE_SHARED=1)', () => {
        throw new Error(`${what}. Mount ../shared or set EVIDENT_SHARED.`);
      });
    });
    return;
  }
  console.warn(`[skip] ${what} (set REQUIRE_SHARED=1 to make this a failure)`);
  describe.skip(name, fn);
}
