import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import type { AddFilesResult, FileInput, FileProgress } from '../worker/ask-api';
import { IngestStore, MAX_FILE_BYTES } from './ingest-store';

/**
 * A stand-in for the worker's `addFiles` (the store is the unit; the worker is a collaborator):
 * it reports progress and answers each file with `answer(input)`.
 */
class FakeFiles {
  calls: FileInput[][] = [];
  detachedAfterCall: boolean[] = [];
  constructor(private readonly answer: (f: FileInput) => AddFilesResult['files'][number]) {}
  async addFiles(
    files: readonly FileInput[],
    opts: { onProgress?: (p: FileProgress) => void } = {},
  ): Promise<AddFilesResult> {
    this.calls.push([...files]);
    const out = [];
    for (const [index, f] of files.entries()) {
      for (const phase of ['parse', 'chunk', 'index', 'embed', 'done'] as const) {
        opts.onProgress?.({ fileId: f.fileId, index, count: files.length, phase, done: 1, total: 1 });
        await Promise.resolve();
      }
      out.push(this.answer(f));
    }
    return { files: out };
  }
}

const ok = (f: FileInput) => ({
  fileId: f.fileId,
  ok: true as const,
  docId: `file:${f.name}`,
  title: f.name,
  format: 'markdown' as const,
  chunks: 2,
  pages: null,
  replaced: false,
  warnings: [],
});

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!check()) throw new Error('condition not reached');
};

describe('IngestStore', () => {
  it('sends the files as bytes in one batch and ends each job done, telling the library to refresh', async () => {
    const client = new FakeFiles(ok);
    let changed = 0;
    const store = new IngestStore(client, { onLibraryChanged: () => changed++ });
    const phases: string[] = [];
    store.subscribe(() => {
      const j = store.getState().jobs[0];
      if (j?.phase && phases.at(-1) !== j.phase) phases.push(j.phase);
    });
    store.add([new File(['# A\n\nAlpha.'], 'a.md', { type: 'text/markdown' }), new File(['B'], 'b.txt')]);
    expect(store.getState().jobs.map((j) => j.status)).toEqual(['waiting', 'waiting']);
    await until(() => store.getState().jobs.every((j) => j.status === 'done'));
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]!.map((f) => [f.name, f.mimeType, new TextDecoder().decode(f.bytes)])).toEqual([
      ['a.md', 'text/markdown', '# A\n\nAlpha.'],
      ['b.txt', '', 'B'],
    ]);
    expect(phases).toEqual(['parse', 'chunk', 'index', 'embed', 'done']);
    expect(store.getState().jobs[0]!.result).toMatchObject({ docId: 'file:a.md', chunks: 2 });
    // Once per stored file and once for the batch.
    expect(changed).toBe(3);
  });

  it('ignores progress that arrives after the result (it travels on another message port)', async () => {
    let late: (() => void) | null = null;
    const client = {
      addFiles: async (files: readonly FileInput[], opts: { onProgress?: (p: FileProgress) => void } = {}) => {
        const f = files[0]!;
        late = () => opts.onProgress?.({ fileId: f.fileId, index: 0, count: 1, phase: 'done', done: 1, total: 1 });
        return { files: [ok(f)] };
      },
    };
    const store = new IngestStore(client);
    store.add([new File(['a'], 'a.md')]);
    await until(() => store.getState().jobs[0]!.status === 'done');
    late!();
    expect(store.getState().jobs[0]!.status).toBe('done');
  });

  it('reports a failed file with its message and keeps the others', async () => {
    const client = new FakeFiles((f) =>
      f.name === 'bad.docx'
        ? { fileId: f.fileId, ok: false, error: { code: 'not_docx', message: 'This is a Word 97 file.' } }
        : ok(f),
    );
    const store = new IngestStore(client);
    store.add([new File(['x'], 'bad.docx'), new File(['y'], 'good.md')]);
    await until(() => store.getState().jobs.every((j) => j.status === 'done' || j.status === 'failed'));
    expect(store.getState().jobs.map((j) => [j.name, j.status, j.error?.message ?? null])).toEqual([
      ['bad.docx', 'failed', 'This is a Word 97 file.'],
      ['good.md', 'done', null],
    ]);
  });

  it('asks for a PDF password and retries the same file with it', async () => {
    const client = new FakeFiles((f) =>
      f.password === 'baz'
        ? ok(f)
        : {
            fileId: f.fileId,
            ok: false,
            error: f.password
              ? { code: 'pdf_wrong_password', message: 'That password does not open this PDF.' }
              : { code: 'pdf_password_required', message: 'This PDF is password-protected.' },
          },
    );
    const store = new IngestStore(client);
    store.add([new File(['%PDF'], 'secret.pdf')]);
    await until(() => store.getState().jobs[0]!.status === 'password');
    expect(store.getState().jobs[0]!.wrongPassword).toBe(false);
    const id = store.getState().jobs[0]!.id;
    store.submitPassword(id, 'nope');
    await until(() => store.getState().jobs[0]!.status === 'password' && store.getState().jobs[0]!.wrongPassword);
    store.submitPassword(id, 'baz');
    await until(() => store.getState().jobs[0]!.status === 'done');
    expect(client.calls.map((c) => c[0]!.password)).toEqual([undefined, 'nope', 'baz']);
    // Each try read the file again (the earlier buffer went to the worker).
    expect(client.calls.map((c) => new TextDecoder().decode(c[0]!.bytes))).toEqual(['%PDF', '%PDF', '%PDF']);
  });

  it('refuses a file over the size limit without reading it', async () => {
    const client = new FakeFiles(ok);
    const store = new IngestStore(client);
    const huge = new File(['x'], 'huge.pdf');
    Object.defineProperty(huge, 'size', { value: MAX_FILE_BYTES + 1 });
    store.add([huge]);
    await until(() => store.getState().jobs[0]!.status === 'failed');
    expect(store.getState().jobs[0]!.error?.code).toBe('file_too_large');
    expect(client.calls).toEqual([]);
  });

  it('stops adding files: the file already stored says so, the rest are cancelled and never sent', async () => {
    const calls: string[][] = [];
    const client = {
      // Stores the first file, then works until cancelled (as the worker does while embedding).
      addFiles: (
        files: readonly FileInput[],
        opts: { signal?: AbortSignal; onProgress?: (p: FileProgress) => void } = {},
      ): Promise<AddFilesResult> => {
        calls.push(files.map((f) => f.name));
        const f = files[0]!;
        opts.onProgress?.({ fileId: f.fileId, index: 0, count: files.length, phase: 'index', done: 1, total: 1 });
        return new Promise((_resolve, reject) =>
          opts.signal?.addEventListener('abort', () => reject(new EvidentError('aborted', 'Cancelled.'))),
        );
      },
    };
    let changed = 0;
    const store = new IngestStore(client, { onLibraryChanged: () => changed++ });
    store.add([new File(['a'], 'a.md'), new File(['b'], 'b.md')]);
    await until(() => store.getState().jobs[0]!.status === 'working');
    store.add([new File(['c'], 'c.md')]);
    store.cancel();
    await until(() => store.getState().jobs.every((j) => j.status === 'cancelled'));
    expect(store.getState().jobs.map((j) => [j.name, j.error?.message])).toEqual([
      [
        'a.md',
        'Cancelled after it was stored: it is in the library and searchable by its words; its remaining vectors are computed on the next start.',
      ],
      ['b.md', 'Cancelled: not added.'],
      ['c.md', 'Cancelled: not added.'],
    ]);
    expect(calls).toEqual([['a.md', 'b.md']]);
    // The stored file was listed, and the list refreshed when the batch ended.
    expect(changed).toBe(2);
    store.clearDone();
    expect(store.getState().jobs).toEqual([]);
  });

  it('sends files added while a batch is in flight at once, beside it (the worker parses them in turn)', async () => {
    const calls: string[][] = [];
    let finishFirst: () => void = () => {};
    const client = {
      addFiles: (files: readonly FileInput[], opts: { onProgress?: (p: FileProgress) => void } = {}) => {
        calls.push(files.map((f) => f.name));
        const answer = { files: files.map(ok) };
        if (calls.length > 1) return Promise.resolve(answer);
        // The first batch is stored, then embeds for a long time.
        const f = files[0]!;
        opts.onProgress?.({ fileId: f.fileId, index: 0, count: 1, phase: 'index', done: 1, total: 1 });
        return new Promise<AddFilesResult>((resolve) => (finishFirst = () => resolve(answer)));
      },
    };
    const store = new IngestStore(client);
    store.add([new File(['a'], 'long-filing.pdf')]);
    await until(() => store.getState().jobs[0]!.status === 'working');
    store.add([new File(['b'], 'second.md')]);
    await until(() => store.getState().jobs[1]?.status === 'done');
    expect(calls).toEqual([['long-filing.pdf'], ['second.md']]);
    expect(store.getState().jobs[0]!.status).toBe('working');
    expect(store.busy).toBe(true);
    finishFirst();
    await until(() => store.getState().jobs[0]!.status === 'done');
    await until(() => !store.busy);
  });

  it('fails every file of a batch whose call failed (a crashed worker), then takes new files', async () => {
    let crash = true;
    const client = {
      addFiles: async (files: readonly FileInput[]): Promise<AddFilesResult> => {
        if (crash) {
          crash = false;
          throw new EvidentError('worker_crashed', 'The background worker crashed.');
        }
        return { files: files.map(ok) };
      },
    };
    const store = new IngestStore(client);
    store.add([new File(['a'], 'a.md'), new File(['b'], 'b.md')]);
    await until(() => store.getState().jobs.every((j) => j.status === 'failed'));
    expect(store.getState().jobs[0]!.error).toEqual({
      code: 'worker_crashed',
      message:
        'The background worker crashed. If the library is kept in this browser, adding it resumes once the worker has restarted.',
    });
    store.add([new File(['c'], 'c.md')]);
    await until(() => store.getState().jobs[2]?.status === 'done');
    store.clearDone();
    expect(store.getState().jobs.map((j) => j.name)).toEqual(['a.md', 'b.md']);
    store.dismiss(store.getState().jobs[0]!.id);
    expect(store.getState().jobs.map((j) => j.name)).toEqual(['b.md']);
  });

  it("tells once a batch ended that a page was OCR'd (tesseract.js loaded), also when that file failed, never otherwise", async () => {
    // A scan reports the `ocr` phase between parse and chunk; one the OCR could not read fails after it.
    const client = {
      addFiles: async (files: readonly FileInput[], opts: { onProgress?: (p: FileProgress) => void } = {}) => {
        const out: AddFilesResult['files'][number][] = [];
        for (const [index, f] of files.entries()) {
          const scan = f.name.endsWith('.pdf');
          for (const phase of scan ? (['parse', 'ocr'] as const) : (['parse', 'chunk', 'index', 'done'] as const)) {
            opts.onProgress?.({ fileId: f.fileId, index, count: files.length, phase, done: 0, total: 1 });
            await Promise.resolve();
          }
          out.push(
            scan
              ? {
                  fileId: f.fileId,
                  ok: false,
                  error: { code: 'pdf_no_text', message: 'OCR found no readable English text.' },
                }
              : ok(f),
          );
        }
        return { files: out };
      },
    };
    const seen: string[][] = [];
    const store = new IngestStore(client, {
      onOcrUsed: () => seen.push(store.getState().jobs.map((j) => j.status)),
    });
    store.add([new File(['a'], 'a.md')]);
    await until(() => store.getState().jobs[0]?.status === 'done');
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([]);
    store.add([new File(['%PDF-'], 'scan.pdf'), new File(['b'], 'b.md')]);
    await until(
      () =>
        store.getState().jobs.length === 3 &&
        store.getState().jobs.every((j) => j.status !== 'waiting' && j.status !== 'working'),
    );
    // Once, with every file of the batch already reported on.
    expect(seen).toEqual([['done', 'failed', 'done']]);
  });
});
