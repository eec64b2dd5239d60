/**
 * Shared by the storage e2e suites (backup, storage pressure, two tabs, faults): the app's
 * IndexedDB read directly from the page, so every "whole or none" check looks at what is stored,
 * not at what the UI says.
 */
import type { Page } from 'playwright-core';

export interface StoredDoc {
  readonly id: string;
  readonly chunkCount: number;
  /** Chunks stored under the document's id. */
  readonly chunks: number;
  /** Vector rows of the active model (the first of the `vectorModels` setting, schema v5). */
  readonly vectorRows: number;
  readonly vectorState: string;
  readonly addedAt: number;
}

export interface Stored {
  readonly docs: StoredDoc[];
  /** Chunks whose document record is missing (must never happen). */
  readonly orphans: number;
  /** Vector segments whose document record is missing (must never happen). */
  readonly orphanVectors: number;
  readonly queue: string[];
  /** The `demoInstalled` setting (the demo library was added once; kept when the user empties the library). */
  readonly demoInstalled: unknown;
}

/** Reads the app's IndexedDB from the page: every document with the chunks and vector rows it has. */
export function readStored(page: Page): Promise<Stored> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('evident');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    if (!db.objectStoreNames.contains('documents')) {
      db.close();
      return { docs: [], orphans: 0, orphanVectors: 0, queue: [], demoInstalled: undefined };
    }
    const tx = db.transaction(['documents', 'chunkSets', 'vectorSets', 'ingestQueue', 'settings'], 'readonly');
    const all = <T>(store: string): Promise<T[]> =>
      new Promise((res, rej) => {
        const r = tx.objectStore(store).getAll();
        r.onsuccess = () => res(r.result as T[]);
        r.onerror = () => rej(r.error);
      });
    const setting = (key: string): Promise<unknown> =>
      new Promise((res) => {
        const r = tx.objectStore('settings').get(key);
        r.onsuccess = () => res(r.result);
      });
    type D = { id: string; chunkCount: number; vectorState: string; addedAt: number };
    const [documents, sets, vectors, queue, demoInstalled, models] = await Promise.all([
      all<D>('documents'),
      // A document's chunks are one record (schema v4).
      all<{ docId: string; chunks: { docId: string }[] }>('chunkSets'),
      // One segment per (model, document) (schema v5).
      all<{ docId: string; embedderId: string; chunkIds: string[] }>('vectorSets'),
      all<{ docId: string }>('ingestQueue'),
      setting('demoInstalled'),
      setting('vectorModels'),
    ]);
    const active = (models as string[] | undefined)?.[0];
    db.close();
    const chunks = sets.flatMap((set) => set.chunks);
    const ids = new Set(documents.map((d) => d.id));
    return {
      docs: documents.map((d) => ({
        id: d.id,
        chunkCount: d.chunkCount,
        chunks: chunks.filter((c) => c.docId === d.id).length,
        vectorRows: vectors.find((v) => v.docId === d.id && v.embedderId === active)?.chunkIds.length ?? 0,
        vectorState: d.vectorState,
        addedAt: d.addedAt,
      })),
      orphans: chunks.filter((c) => !ids.has(c.docId)).length,
      orphanVectors: vectors.filter((v) => !ids.has(v.docId)).length,
      queue: queue.map((q) => q.docId),
      demoInstalled,
    };
  });
}

/** Ids, versions, chunk counts and vector rows: what must survive an export and an import. */
export const identity = (s: Stored): unknown[] =>
  s.docs.map((d) => [d.id, d.addedAt, d.chunkCount, d.chunks, d.vectorRows, d.vectorState]).sort();

/** Opens the app and waits for the model and the library. */
export async function openApp(page: Page, baseUrl: string): Promise<void> {
  await page.goto(baseUrl);
  await page.locator('[data-testid="model-status"][data-state="ready"]').waitFor({ timeout: 180_000 });
  await page.locator('[data-testid="library"][data-state="ready"]').waitFor({ timeout: 180_000 });
}

/**
 * Removes one document through the library list: Remove, then Remove again in the dialog that
 * names it. It leaves the list at once; storage follows (`removedFromStorage`).
 */
export async function removeDocument(page: Page, id: string): Promise<void> {
  const item = page.getByTestId('library').locator(`li[data-doc-id="${id}"]`);
  await item.getByRole('button', { name: /^Remove/ }).click();
  await page.getByTestId('confirm-remove').getByRole('button', { name: 'Remove', exact: true }).click();
  await item.waitFor({ state: 'detached', timeout: 10_000 });
}

/** Waits until IndexedDB no longer holds any of `ids` (a removal leaves the list before storage). */
export async function removedFromStorage(page: Page, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { docs } = await readStored(page);
    if (!docs.some((d) => ids.includes(d.id))) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`still stored after 10 s: ${ids.join(', ')}`);
}

/** Removes every document through the library list, and waits until storage has let them go. */
export async function removeAll(page: Page, ids: readonly string[]): Promise<void> {
  for (const id of ids) await removeDocument(page, id);
  await removedFromStorage(page, ids);
}
