import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { docx, w, zip } from '../../test/fixtures/documents';
import { EvidentError } from '../core/errors';
import {
  appIngest,
  CASE_TIMEOUT_MS,
  classifyError,
  fixtureSeeds,
  makeCase,
  plainMessage,
  runFuzz,
  runInProcess,
  type Seed,
} from './fuzz';

type Ingest = Awaited<ReturnType<typeof appIngest>>;
let ingest: Ingest;
let seeds: Seed[];

beforeAll(async () => {
  ingest = await appIngest();
  seeds = await fixtureSeeds();
});

describe('fuzz: a fixed-seed slice through the app parse path', () => {
  it('ends every case in a result or a known error with a plain message, each within the bound', async () => {
    const verdicts = new Map<string, number>();
    const mutations = new Set<string>();
    // 40 cases: every mutation family but the 50 MB one (case 499), including case 11 (nested) and 37 (1 byte).
    for (let i = 0; i < 40; i++) {
      const c = await makeCase(seeds, 7, i);
      mutations.add(c.mutation.replace(/\(.*$/, ''));
      const out = await runInProcess(ingest, c);
      expect(out.verdict, `case ${i} (${c.mutation} of ${c.from}): ${out.outcome} ${out.message ?? ''}`).toMatch(
        /^(?:ok|known_error)$/,
      );
      expect(out.cpuMs ?? out.ms).toBeLessThan(CASE_TIMEOUT_MS);
      verdicts.set(out.verdict, (verdicts.get(out.verdict) ?? 0) + 1);
    }
    // The slice exercises both outcomes and the format-aware mutations, or it proves nothing.
    expect(verdicts.get('ok') ?? 0).toBeGreaterThan(0);
    expect(verdicts.get('known_error') ?? 0).toBeGreaterThan(0);
    for (const m of ['flip', 'truncate', 'zip-corrupt', 'pdf-length', 'one-byte']) expect(mutations).toContain(m);
  });

  it('makes the same bytes for the same seed and index, other bytes for another seed', async () => {
    const a = await makeCase(seeds, 3, 5);
    const b = await makeCase(seeds, 3, 5);
    const c = await makeCase(seeds, 4, 5);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(Buffer.from(a.bytes).equals(Buffer.from(c.bytes))).toBe(false);
  });
});

describe('fuzz: verdicts', () => {
  it('calls a non-EvidentError throw, an internal error and an unreadable message failures', () => {
    expect(classifyError(new TypeError("Cannot read properties of undefined (reading 'x')"), 1).verdict).toBe('crash');
    expect(classifyError(new EvidentError('internal', 'Something went wrong inside.'), 1).verdict).toBe('crash');
    expect(classifyError(new EvidentError('not_docx', 'Bad (line:undefined,col:undefined).'), 1).verdict).toBe('crash');
    expect(
      classifyError(new EvidentError('pdf_corrupt', 'This PDF is damaged: none of its pages could be read.'), 1),
    ).toMatchObject({
      verdict: 'known_error',
      outcome: 'pdf_corrupt',
    });
  });

  it('kills a case past the bound in its child process, counts a hang and writes the case out', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'evident-fuzz-test-'));
    // A bound of 1 ms of CPU: no case can meet it, so each must be cut off, and the run must go on.
    const totals = await runFuzz({ cases: 2, seed: 1, out, shared: false, timeoutMs: 1 });
    expect(totals.cases).toBe(2);
    expect(totals.hangs).toBe(2);
    expect(totals.childRestarts).toBe(2);
    expect(totals.failing.map((f) => existsSync(f.file))).toEqual([true, true]);
  });
});

describe('fuzz regressions (cases the campaign found, minimized)', () => {
  it("a DOCX whose XML is damaged is refused in plain words, not with the XML library's message", async () => {
    // Campaign seed 1, cases 243, 523, 1075: a flipped byte inside a tag of document.xml or
    // [Content_Types].xml; mammoth threw "[xmldom error] element parse error … @#[line:undefined,col:undefined]".
    const good = await docx(w.para('Fine.'));
    expect((await runInProcess(ingest, { bytes: good, fileName: 'fine.docx' })).verdict).toBe('ok');
    const damaged = await zip([
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>',
      },
      {
        name: 'word/document.xml',
        data: '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p a><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>',
      },
    ]);
    const out = await runInProcess(ingest, { bytes: damaged, fileName: 'damaged.docx' });
    expect(out).toMatchObject({ verdict: 'known_error', outcome: 'not_docx' });
    expect(out.message).not.toMatch(/xmldom|undefined/);
    expect(plainMessage(out.message ?? '')).toBe(true);
  });

  it('a DOCX part whose bytes do not match its CRC is refused at once, not handed to mammoth', async () => {
    // Campaign seed 3, case 891: six flipped bits in the deflate data of the DOJ handbook's 5 MB
    // document.xml inflated to the declared size as garbled XML, and mammoth read it for over
    // two minutes (the case hung). The minimized form: a valid package whose central directory
    // declares another CRC for word/document.xml.
    const bytes = await docx(w.para('The text itself is fine.'));
    const name = new TextEncoder().encode('word/document.xml');
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    let patched = false;
    for (let p = 0; p + 46 < bytes.length; p++) {
      if (dv.getUint32(p, true) !== 0x02014b50) continue;
      const n = dv.getUint16(p + 28, true);
      if (n === name.length && bytes.subarray(p + 46, p + 46 + n).every((c, i) => c === name[i])) {
        dv.setUint32(p + 16, dv.getUint32(p + 16, true) ^ 0x00010000, true);
        patched = true;
      }
    }
    expect(patched).toBe(true);
    const out = await runInProcess(ingest, { bytes, fileName: 'crc.docx' });
    expect(out).toMatchObject({ verdict: 'known_error', outcome: 'not_docx' });
    expect(out.message).toMatch(/checksum does not match/);
    expect(plainMessage(out.message ?? '')).toBe(true);
  });
});
