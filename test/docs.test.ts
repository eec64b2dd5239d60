/**
 * The documents a newcomer reads first stay short and true: README starts with the two commands
 * CI runs, and every repository path README, DESIGN.md and the decision records name exists, so a
 * reader can find each stage where the text says it is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
describe('DESIGN.md and docs/decisions', () => {
  const design = read('DESIGN.md');

  it('is under 500 lines with a diagram of the pipeline', () => {
    expect(lineCount(design)).toBeLessThan(500);
    expect(design).toMatch(/```(?:mermaid|text)?\n[^`]*─►/);
  });

  it('names only paths that exist, for every stage it describes', () => {
    const paths = repoPaths(design);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });

  it('keeps one dated decision per file, each with context, options, measurements and the choice', () => {
    const files = readdirSync(path.join(root, 'docs', 'decisions')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expect(file, 'named YYYY-MM-DD-topic.md').toMatch(/^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/);
      const text = read(path.join('docs', 'decisions', file));
      for (const heading of ['## Context', '## Options', '## Measured', '## Chosen']) {
        expect(text, `${file} lacks "${heading}"`).toContain(heading);
      }
      const missing = repoPaths(text).filter((p) => !existsSync(path.join(root, p)));
      expect(missing, file).toEqual([]);
    }
  });
});
