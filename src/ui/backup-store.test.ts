/**
 * The backup store against the real storage (fake-indexeddb: the real `idb` code on an in-memory
 * IndexedDB): the worker's export / import calls stand in as the `Library` methods they call.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncryptedLibrary } from '../core/library-crypto';
import { decodeLibrary } from '../core/library-format';
import { Library } from '../storage/library';
import { Engine } from '../worker/engine';
import { WordHashEmbedder } from '../worker/testing';
import { BackupStore, exportFileName, type BackupState } from './backup-store';

let n = 0;
const libraries: Library[] = [];
afterEach(() => {
  for (const l of libraries.splice(0)) l.close();
});

/** A stored library with `docs` documents (ids `doc-<i>`), as the worker builds it, embedded by `embedder`. */
async function storedLibrary(docs: readonly string[], embedder = new WordHashEmbedder()): Promise<Library> {
  const library = await Library.open({ name: `evident-backup-test-${n++}` });
  libraries.push(library);
  const engine = new Engine();
  engine.attachStore(library);
  engine.setEmbedder(embedder);
  for (const id of docs) {
    await engine.addDocument({
      docId: id,
      title: `Policy ${id}`,
      text: `# Policy ${id}\n\nEmployees receive 28 days of annual leave in ${id}.\n\nRemote work needs approval.`,
      format: 'markdown',
    });
  }
  return library;
}

/** The worker's calls, on `library`; `fillVectors` is counted. */
function clientOf(library: Library) {
  const calls = { fill: 0, imports: 0 };
  return {
    calls,
    client: {
      exportLibrary: (opts: { passphrase?: string } = {}) => library.exportLibrary(opts),
      importLibrary: (bytes: Uint8Array, opts: { mode?: 'merge' | 'replace'; passphrase?: string } = {}) => {
        calls.imports++;
        return library.importLibrary(bytes, { mode: opts.mode ?? 'merge', passphrase: opts.passphrase });
      },
      fillVectors: async () => {
        calls.fill++;
        return { documents: 0, chunks: 0, ms: 0 };
      },
    },
  };
}

const ids = async (library: Library): Promise<string[]> => (await library.loadText()).documents.map((d) => d.id).sort();

async function exported(library: Library, passphrase?: string): Promise<{ file: File; state: BackupState }> {
  const saved: { blob: Blob; name: string }[] = [];
  const store = new BackupStore(clientOf(library).client, {
    save: (blob, name) => saved.push({ blob, name }),
    now: () => new Date(2025, 2, 7, 12),
  });
  await store.exportLibrary(passphrase === undefined ? {} : { passphrase });
  expect(saved).toHaveLength(1);
  return { file: new File([saved[0]!.blob], saved[0]!.name), state: store.getState() };
}

describe('BackupStore', () => {
  it('exports the library as one dated file that decodes to every document and chunk', async () => {
    const src = await storedLibrary(['doc-a', 'doc-b']);
    const { file, state } = await exported(src);
    expect(file.name).toBe('evident-library-2025-03-07.evlib');
    expect(state.export).toEqual({ phase: 'done', fileName: file.name, bytes: file.size, encrypted: false });
    const snap = decodeLibrary(new Uint8Array(await file.arrayBuffer()));
    expect(snap.documents.map((d) => d.id).sort()).toEqual(['doc-a', 'doc-b']);
    expect(snap.chunks.length).toBe((await src.loadText()).chunks.length);
    expect(snap.vectors.every((v) => v.chunkIds.length > 0)).toBe(true);
  });

  it('imports only after confirmation, in merge mode by default, and tells the library to refresh', async () => {
    const { file } = await exported(await storedLibrary(['doc-a', 'doc-b']));
    const dst = await storedLibrary(['doc-b', 'doc-c']);
    const { client, calls } = clientOf(dst);
    let changed = 0;
    const store = new BackupStore(client, { onLibraryChanged: () => changed++, usage: async () => usage });
    store.choose(file);
    expect(store.getState().import).toEqual({ phase: 'chosen', fileName: file.name, size: file.size, encrypted: null });
    expect(calls.imports).toBe(0);
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({
      phase: 'done',
      mode: 'merge',
      result: { documents: 2, replaced: 1 },
    });
    expect(await ids(dst)).toEqual(['doc-a', 'doc-b', 'doc-c']);
    expect(changed).toBe(1);
    // Every chunk came with its vector: nothing to embed.
    expect(calls.fill).toBe(0);
  });

  it('replace mode leaves exactly the documents of the file', async () => {
    const { file } = await exported(await storedLibrary(['doc-a']));
    const dst = await storedLibrary(['doc-x', 'doc-y']);
    const store = new BackupStore(clientOf(dst).client);
    store.choose(file);
    store.setMode('replace');
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({ phase: 'done', mode: 'replace', result: { documents: 1 } });
    expect(await ids(dst)).toEqual(['doc-a']);
  });

  it('refuses a tampered file with a plain message and leaves the library as it was', async () => {
    const { file } = await exported(await storedLibrary(['doc-a']));
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Change one letter of a chunk's text in the header: same length, so only the content check can tell.
    const at = new TextDecoder().decode(bytes).indexOf('annual leave');
    expect(at).toBeGreaterThan(0);
    bytes[at] = 'A'.charCodeAt(0);
    const forged = new File([bytes], 'forged.evlib');

    const dst = await storedLibrary(['doc-keep']);
    const before = await dst.loadAll();
    let changed = 0;
    const store = new BackupStore(clientOf(dst).client, { onLibraryChanged: () => changed++ });
    store.choose(forged);
    await store.confirmImport();
    const state = store.getState().import;
    expect(state.phase).toBe('error');
    if (state.phase === 'error') {
      expect(state.fileName).toBe('forged.evlib');
      expect(state.error.code).toBe('invalid_input');
      expect(state.error.message).toMatch(/hash does not match its text/);
    }
    const after = await dst.loadAll();
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toEqual(before.chunks);
    expect(changed).toBe(0);

    // Not a library file at all.
    store.choose(new File(['just some notes'], 'notes.txt'));
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({
      phase: 'error',
      error: { message: expect.stringMatching(/not a valid Evident library file/) },
    });
    expect(await ids(dst)).toEqual(['doc-keep']);
  });

  it('a protected export asks for its passphrase, keeps the file chosen after a wrong one, and imports with the right one', async () => {
    const { file, state } = await exported(await storedLibrary(['doc-a']), 'long enough passphrase');
    expect(state.export).toMatchObject({ phase: 'done', encrypted: true });
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(isEncryptedLibrary(bytes)).toBe(true);
    expect(new TextDecoder().decode(bytes)).not.toContain('annual leave');

    const dst = await storedLibrary(['doc-keep']);
    const before = await dst.loadAll();
    const { client, calls } = clientOf(dst);
    let changed = 0;
    const store = new BackupStore(client, { onLibraryChanged: () => changed++ });
    store.choose(file);
    // Without a passphrase: asked for, nothing sent to the worker.
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({
      phase: 'chosen',
      encrypted: true,
      error: { code: 'passphrase_required' },
    });
    expect(calls.imports).toBe(0);
    // A wrong one: still chosen, told so, the library as it was.
    await store.confirmImport('long enough passphrasE');
    expect(store.getState().import).toMatchObject({
      phase: 'chosen',
      fileName: file.name,
      error: { code: 'wrong_passphrase', message: expect.stringMatching(/^This passphrase does not open the file/) },
    });
    const after = await dst.loadAll();
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toEqual(before.chunks);
    expect(changed).toBe(0);
    // The right one.
    await store.confirmImport('long enough passphrase');
    expect(store.getState().import).toMatchObject({ phase: 'done', result: { documents: 1 } });
    expect(await ids(dst)).toEqual(['doc-a', 'doc-keep']);
    expect(changed).toBe(1);
  });

  it('a plain file is chosen as unprotected and imports without a passphrase', async () => {
    const { file } = await exported(await storedLibrary(['doc-a']));
    const store = new BackupStore(clientOf(await storedLibrary([])).client);
    store.choose(file);
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({ phase: 'done', result: { documents: 1 } });
  });

  it('says an empty file is empty without sending it, and a cancelled choice imports nothing', async () => {
    const dst = await storedLibrary([]);
    const { client, calls } = clientOf(dst);
    const store = new BackupStore(client);
    store.choose(new File([], 'empty.evlib'));
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({ phase: 'error', error: { message: 'The file is empty.' } });
    const { file } = await exported(await storedLibrary(['doc-a']));
    store.choose(file);
    store.cancelImport();
    await store.confirmImport();
    expect(store.getState().import).toEqual({ phase: 'idle' });
    expect(calls.imports).toBe(0);
    expect(await ids(dst)).toEqual([]);
  });

  it('embeds imported chunks that came without vectors', async () => {
    const raw = decodeLibrary(await (await storedLibrary(['plain'])).exportLibrary());
    // The same document stored before its vectors (a reload mid-embedding): the export has none for it.
    const bare = await storedLibrary([]);
    await bare.putDocument({ document: { ...raw.documents[0]!, vectorState: 'pending' }, chunks: raw.chunks });
    const { file } = await exported(bare);
    const dst = await storedLibrary([]);
    const { client, calls } = clientOf(dst);
    const store = new BackupStore(client);
    store.choose(file);
    await store.confirmImport();
    expect(store.getState().import).toMatchObject({ phase: 'done', result: { chunks: 1, vectors: 0 } });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.fill).toBe(1);
  });

  it('a backup embedded by another model: its chunks are embedded with this library’s, its vectors kept for a switch', async () => {
    const { file } = await exported(await storedLibrary(['doc-a'], new WordHashEmbedder({ id: 'model-b', dim: 48 })));
    const dst = await storedLibrary(['doc-c']);
    const { client, calls } = clientOf(dst);
    const store = new BackupStore(client);
    store.choose(file);
    await store.confirmImport();
    // None of the file's rows is of the library's model (`word-hash-64`): the chunks need its vectors.
    expect(store.getState().import).toMatchObject({ phase: 'done', result: { documents: 1, vectors: 0 } });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.fill).toBe(1);
    // The file's vectors are stored as the previous model's: a switch to `model-b` reuses them.
    expect(await dst.vectorModels()).toEqual(['word-hash-64', 'model-b']);
    expect((await dst.loadVectors('model-b')).map((v) => [v.docId, v.dim])).toEqual([['doc-a', 48]]);
  });

  it('reads the storage usage', async () => {
    const store = new BackupStore(clientOf(await storedLibrary([])).client, { usage: async () => usage });
    await store.refreshUsage();
    expect(store.getState().usage).toEqual(usage);
  });

  it('names the export by the local date', () => {
    expect(exportFileName(new Date(2024, 11, 31, 23, 59))).toBe('evident-library-2024-12-31.evlib');
  });
});

const usage = { usage: 5 * 1024 * 1024, quota: 2 * 1024 ** 3, persisted: true };
