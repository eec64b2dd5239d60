/** Screenshots the e2e suites save for a person to look at. */
import type { Locator, Page } from 'playwright-core';

/**
 * Saves a screenshot for a person to look at: an artifact, not a check. Under load a page may wait
 * long for its fonts ("waiting for fonts" timed out once in CI while evaluations ran beside the
 * suite), so it waits up to a minute and then warns instead of failing the test.
 */
export async function saveScreenshot(
  target: Page | Locator,
  options: { readonly path: string; readonly fullPage?: boolean },
): Promise<void> {
  const { path, fullPage } = options;
  const taken =
    'goto' in target
      ? target.screenshot({ path, fullPage: fullPage ?? false, timeout: 60_000 })
      : target.screenshot({ path, timeout: 60_000 });
  await taken.catch((e: Error) => console.warn(`[e2e] no screenshot ${path} (${e.message.split('\n')[0]})`));
}
