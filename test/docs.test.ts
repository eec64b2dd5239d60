/**
 * The documents a newcomer reads first stay short and true: README starts with the two commands
 * CI runs, and every repository path README, DESIGN.md and the decision records name exists, so a
 * reader can find each stage where the text says it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const lineCount = (text: string): number => text.split('\n').length;

/** Top-level folders and files whose paths a document may name. */
const REPO_PREFIX = /^(?:(?:src|scripts|test|docs|public|\.ci)\/|models\/manifest\.json$)/;

/**
 * Repository paths in a document's inline code: `src/core/select/cutoff.ts`, `src/core/verify`,
 * `scripts/nginx-evident.conf`. Placeholders (`<id>`), globs, ellipses and generated folders are
 * not paths to check; a trailing `:line` or `#anchor` is dropped.
 */
function repoPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const word of (match[1] as string).split(/[\s,()]+/)) {
      const candidate = word.replace(/[:#].*$/, '').replace(/[.;]$/, '');
      if (!REPO_PREFIX.test(candidate) || /[<>*…{}|]/.test(candidate)) continue;
      found.add(candidate.replace(/\/$/, ''));
    }
  }
  return [...found].sort();
}

describe('repoPaths', () => {
  it('reads paths from inline code and skips placeholders and globs', () => {
    expect(
      repoPaths('see `src/core/select/cutoff.ts` and `models/<id>/`, `src/**/*.test.ts`, `npm test`, `src/sw/`'),
    ).toEqual(['src/core/select/cutoff.ts', 'src/sw']);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('opens with the start and test commands, the ones .ci/run runs', () => {
    const firstBlock = /^# Evident\n\n```sh\n([\s\S]*?)\n```/.exec(readme);
    expect(firstBlock, 'README must open with a sh block right under the title').not.toBeNull();
    const commands = (firstBlock![1] as string).split('\n').map((line) => line.replace(/#.*$/, '').trim());
    expect(commands).toEqual(['npm install && npm start', 'npm ci && npm test']);
    const ci = read('.ci/run');
    expect(ci).toContain('phase "npm ci" npm ci');
    expect(ci).toContain('phase "npm test" npm test');
  });

  it('is under 300 lines, has a usage section and links its figures to BENCHMARKS.md', () => {
    expect(lineCount(readme)).toBeLessThan(300);
    expect(readme).toMatch(/^## Using it$/m);
    expect(readme).toContain('(BENCHMARKS.md)');
    expect(existsSync(path.join(root, 'BENCHMARKS.md'))).toBe(true);
  });

  it('names only paths that exist', () => {
    const missing = repoPaths(readme).filter((p) => !existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });
});
