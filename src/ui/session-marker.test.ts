/**
 * A library the browser cleared between visits (storage pressure, persistence refused): the
 * session compares what the worker opens with the marker of the last visit and says so.
 * The session and the marker are real; the worker client is scripted (its storage is a list of
 * ids, and an eviction is that list emptied with the stored `demoInstalled` flag).
 */
import { describe, expect, it } from 'vitest';
import type { AddDocumentInput, AddDocumentsResult } from '../worker/api';
import { fakeLibraryCalls, FAKE_EMBEDDER } from '../../test/session-fixture';
import {
  LIBRARY_MARKER_KEY,
  checkLibrary,
  lostLibraryMessage,
  readMarker,
  writeMarker,
  type LibraryMarker,
} from './library-marker';
import { EvidentSession } from './session';

const DEMO: AddDocumentInput[] = [
  { docId: 'demo-a', title: 'A', text: 'alpha', format: 'text' },
  { docId: 'demo-b', title: 'B', text: 'beta', format: 'text' },
];

/** localStorage's two calls over a Map (the page's own is not in Node). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  } as Storage;
}

/** The stored library of the scripted worker: ids, and the `demoInstalled` flag stored with them. */
function storedLibrary() {
  const db = { added: [] as string[], demoInstalled: false, skipped: [] as string[] };
  const client = {
    ...fakeLibraryCalls(db.added, () => ({ demoInstalled: db.demoInstalled, skipped: db.skipped })),
    loadEmbedder: async () => FAKE_EMBEDDER,
    addDocuments: async (
      docs: readonly AddDocumentInput[],
      opts: { installDemo?: boolean } = {},
    ): Promise<AddDocumentsResult> => {
      if (opts.installDemo) db.demoInstalled = true;
      for (const d of docs) db.added.push(d.docId);
      return {
        added: docs.map((d) => ({
          docId: d.docId,
          chunks: 1,
          tokens: 1,
          chunkMs: 0,
          embedMs: 0,
          indexMs: 0,
          replaced: false,
        })),
        failed: [],
      };
    },
    deleteDocument: async (docId: string) => {
      const at = db.added.indexOf(docId);
      if (at >= 0) db.added.splice(at, 1);
      return at >= 0;
    },
    subscribe: () => () => {},
    dispose: () => {},
  };
  /** What eviction does: the database is gone with everything in it. */
  const evict = (): void => {
    db.added.splice(0);
    db.demoInstalled = false;
  };
  return { db, client, evict };
}

async function visit(client: unknown, storage: Storage): Promise<EvidentSession> {
  const s = new EvidentSession(client as never, DEMO, true, storage);
  await s.start();
  return s;
}

const errors = (s: EvidentSession): string[] =>
  s
    .getState()
    .notices.filter((n) => n.kind === 'error')
    .map((n) => n.text);

describe('a library cleared between visits', () => {
  it('is said to be gone, with its size and a restore hint, instead of opening as a new library', async () => {
    const storage = memoryStorage();
    const lib = storedLibrary();
    const first = await visit(lib.client, storage);
    await lib.client.addDocuments([{ docId: 'mine', title: 'Mine', text: 'x', format: 'text' }]);
    await first.refreshLibrary();
    expect(errors(first)).toEqual([]);
    expect(readMarker(storage)).toMatchObject({ version: 1, documents: 3, chunks: 3 });

    lib.evict();
    const second = await visit(lib.client, storage);
    const said = errors(second);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Your library of 3 documents \(last seen on .*\) is no longer in this browser/);
    expect(said[0]).toMatch(/Restore it from a backup: Library → Backup and storage → Import a library file/);
  });

  it('says how many documents are missing when part of the library is gone', async () => {
    const storage = memoryStorage();
    const lib = storedLibrary();
    await visit(lib.client, storage);
    // One document gone without the app removing it (the demo flag survived).
    lib.db.added.splice(0, 1);
    const again = await visit(lib.client, storage);
    expect(errors(again)).toEqual([
      expect.stringMatching(/^1 document of the 2 last seen on .* is missing from the library/),
    ]);
  });

  it('says nothing when the user removed every document, on a first visit, or for a tab-only library', async () => {
    const storage = memoryStorage();
    const lib = storedLibrary();
    const first = await visit(lib.client, storage);
    expect(errors(first)).toEqual([]);
    await first.deleteDocument('demo-a');
    await first.deleteDocument('demo-b');
    expect(readMarker(storage)).toMatchObject({ documents: 0 });
    const again = await visit(lib.client, storage);
    expect(errors(again)).toEqual([]);
    expect(
      checkLibrary(readMarker(storage), { persistent: false, documents: 0, demoInstalled: false, skipped: 0 }),
    ).toEqual({ kind: 'ok' });
  });
});

describe('library marker', () => {
  const marker: LibraryMarker = { version: 1, documents: 5, chunks: 40, at: '2026-11-30T10:00:00.000Z' };

  it('round-trips and ignores what it cannot read', () => {
    const storage = memoryStorage();
    expect(readMarker(storage)).toBeNull();
    writeMarker(storage, { documents: 5, chunks: 40 }, new Date(marker.at));
    expect(readMarker(storage)).toEqual(marker);
    for (const bad of [
      '{',
      'null',
      '{"version":2,"documents":1,"chunks":1,"at":"x"}',
      '{"version":1,"documents":-1}',
    ]) {
      storage.setItem(LIBRARY_MARKER_KEY, bad);
      expect(readMarker(storage)).toBeNull();
    }
    const throwing = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(readMarker(throwing)).toBeNull();
    expect(() => writeMarker(throwing, { documents: 1, chunks: 1 })).not.toThrow();
  });

  it('tells evicted, partial and whole apart', () => {
    const opened = { persistent: true, documents: 0, demoInstalled: false, skipped: 0 };
    expect(checkLibrary(marker, opened)).toEqual({ kind: 'evicted', marker });
    expect(checkLibrary(null, opened)).toEqual({ kind: 'ok' });
    expect(checkLibrary({ ...marker, documents: 0 }, opened)).toEqual({ kind: 'ok' });
    expect(checkLibrary(marker, { ...opened, documents: 3, demoInstalled: true })).toEqual({
      kind: 'partial',
      marker,
      missing: 2,
    });
    expect(checkLibrary(marker, { ...opened, documents: 5, demoInstalled: true })).toEqual({ kind: 'ok' });
    expect(checkLibrary(marker, { ...opened, documents: 7, demoInstalled: true })).toEqual({ kind: 'ok' });
    expect(checkLibrary(marker, { ...opened, documents: 5, demoInstalled: true, skipped: 1 })).toMatchObject({
      kind: 'partial',
      missing: 1,
    });
    expect(lostLibraryMessage({ kind: 'evicted', marker }, 'en-GB')).toMatch(
      /^Your library of 5 documents \(last seen on 30 Nov 2026\) is no longer in this browser/,
    );
    expect(lostLibraryMessage({ kind: 'ok' })).toBeNull();
  });
});
