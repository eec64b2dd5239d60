/**
 * Answers over a real document in a library of others (issue 26), in Chromium through the built
 * app: the IRS instructions for Form 1040NR (50 pages, three columns) are added beside the demo
 * library, then
 * - "If the regular due date … falls on a Saturday, Sunday, or legal holiday, when should you
 *   file?" is answered "the next business day", supported and cited on page 4; "Which form should
 *   you file if you cannot file … by the due date?" is answered "Form 4868" on page 4 or refused
 *   (issue 26's target; not reached yet), never anything else;
 * - a refusal says nothing about the library that a search of it contradicts: a name it says the
 *   documents do not mention is in no search result, one it says they mention elsewhere is in one.
 *
 * Reads the instructions from ../shared at run time (`describeShared`). Screenshots of the two
 * answers go to test-results/.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { describeShared, sharedPath } from '../../src/node/shared-data';
import { addFiles, askQuestion, openAppPage } from './built-app';
import { saveScreenshot } from './screenshot';

const ctx = inject('e2e');
if (ctx.skip) console.warn(`[e2e] ${ctx.skip}`);

const IRS = 'testdocs/good/irs-i1040nr-2007.pdf';

const ANSWERED = [
  {
    name: 'weekend',
    question:
      'If the regular due date for filing Form 1040NR falls on a Saturday, Sunday, or legal holiday, when should you file?',
    answer: /next business day/i,
    cited: /file by the next business day/,
    mustAnswer: true,
  },
  {
    name: 'extension',
    question: 'Which form should you file if you cannot file your Form 1040NR return by the due date?',
    answer: /Form 4868/,
    cited: /you should file Form 4868/,
    // Not reached yet (issue 26): refused, its one passage "uncorroborated" by the demo's unrelated
    // policies (branch keep/documents-in-play reads them out of play). Never released wrong.
    mustAnswer: false,
  },
] as const;

/** Questions the instructions do not answer, naming things the library may or may not hold. */
const REFUSED = [
  'What was EBITDA in FY2022?',
  'What fax number should you use to send Form 1040NR to the IRS?',
  'How many days a week can Globex Corporation staff work from home?',
  'How many days a week can a Form 1040NR filer work from home?',
] as const;

describeShared('answers from one document in a library of others', [IRS], () => {
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    if (ctx.skip) return;
    ({ browser, page, pageErrors } = await openAppPage(ctx.baseUrl));
    await addFiles(page, [sharedPath(IRS)], { timeout: 300_000 });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    if (await page.getByTestId('passage-dialog').isVisible()) await page.keyboard.press('Escape');
  });

  /**
   * Page and text of every passage the answer cites: the page the dialog opens on through the
   * citation mark (on the page view or the text), the text as the Sources list shows it.
   */
  const citedPassages = async (): Promise<{ citation: string; page: number; text: string }[]> => {
    const marks = page.getByTestId('answer-text').locator('button.cite');
    const ids = [...new Set(await marks.evaluateAll((els) => els.map((e) => e.getAttribute('data-citation') ?? '')))];
    const dialog = page.getByTestId('passage-dialog');
    const out: { citation: string; page: number; text: string }[] = [];
    for (const id of ids) {
      await page.getByTestId('answer-text').locator(`button.cite[data-citation="${id}"]`).first().click();
      const shownPage = dialog.getByTestId('passage-page');
      await shownPage.waitFor({ timeout: 30_000 });
      const pageNumber = Number((await shownPage.innerText()).replace(/\D+/g, ''));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      const source = page.getByTestId('sources').locator(`li.source[data-citation="${id}"]`);
      out.push({ citation: id, page: pageNumber, text: (await source.innerText()).replace(/\s+/g, ' ') });
    }
    return out;
  };

  it.skipIf(ctx.skip !== null).each(ANSWERED)(
    '$name: supported from the instructions, cited on page 4 (or, where not yet reached, refused)',
    async ({ name, question, answer, cited, mustAnswer }) => {
      await askQuestion(page, question);
      const result = page.getByTestId('ask-result');
      const shown = await page.getByTestId('answer-text').innerText();
      console.log(`[e2e] answers ${name}: ${await result.getAttribute('data-outcome')}: ${JSON.stringify(shown)}`);
      // A picture to look at, not a check: the page may be busy embedding the new document.
      await saveScreenshot(page, { path: `test-results/answers-irs-${name}.png`, fullPage: true });
      const outcome = await result.getAttribute('data-outcome');
      if (!mustAnswer && outcome === 'abstain') return;
      expect(outcome).toBe('supported');
      expect(shown).toMatch(answer);
      const passages = await citedPassages();
      expect(
        passages.some((p) => p.page === 4 && cited.test(p.text.replace(/\s+/g, ' '))),
        JSON.stringify(passages),
      ).toBe(true);
      expect(pageErrors).toEqual([]);
    },
  );

  it.skipIf(ctx.skip !== null)('a refusal says nothing about the library that a search of it contradicts', async () => {
    let claims = 0;
    for (const question of REFUSED) {
      await askQuestion(page, question);
      const outcome = await page.getByTestId('ask-result').getAttribute('data-outcome');
      const text = await page.getByTestId('answer').innerText();
      console.log(
        `[e2e] answers refusal: ${JSON.stringify(question)} → ${outcome}: ${JSON.stringify(text.slice(0, 300))}`,
      );
      if (outcome !== 'abstain') continue;
      const absent = /do not mention ((?:“[^”]+”(?:, )?)+)\.(?!.*elsewhere)/u.exec(text)?.[1];
      const elsewhere = /do not mention ((?:“[^”]+”(?:, )?)+), though your documents do elsewhere/u.exec(text)?.[1];
      for (const name of names(absent)) {
        claims++;
        expect(await searchFinds(name), `the refusal says the documents do not mention “${name}”`).toBe(false);
      }
      for (const name of names(elsewhere)) {
        claims++;
        expect(await searchFinds(name), `the refusal says the documents mention “${name}” elsewhere`).toBe(true);
      }
    }
    console.log(`[e2e] answers refusal: ${claims} claims about the library checked against a search`);
    // "Globex Corporation" is named by no document: at least that claim is made, and checked.
    expect(claims).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  /** The names inside a refusal's “…” marks. */
  const names = (list: string | undefined): string[] =>
    [...(list ?? '').matchAll(/“([^”]+)”/gu)].map((m) => m[1] as string);

  /** Whether a search of the library ranks a passage that holds `name` (case and spacing aside). */
  const searchFinds = async (name: string): Promise<boolean> => {
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.getByLabel('Search your documents').fill(name);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // Done with this query: the section names the query it shows the results of.
    await page
      .locator(`[data-testid="search-results"][aria-busy="false"][data-query="${name.replace(/["\\]/g, '\\$&')}"]`)
      .waitFor({ timeout: 60_000 });
    const texts = await page
      .getByTestId('results')
      .locator('li')
      .allInnerTexts()
      .catch(() => [] as string[]);
    const want = name.toLowerCase().replace(/\s+/g, ' ');
    const found = texts.some((t) => t.toLowerCase().replace(/\s+/g, ' ').includes(want));
    console.log(`[e2e] answers refusal: search "${name}": ${texts.length} results, holds it: ${found}`);
    return found;
  };
});
