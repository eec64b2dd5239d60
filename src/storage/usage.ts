/**
 * Storage usage and persistence, without IndexedDB: the page imports this alone (the worker's
 * `Library` stays out of the page bundle).
 */

/** Bytes used and available to this origin, and whether the browser keeps them under pressure. */
export interface StorageUsage {
  /** null where the browser does not say. */
  readonly usage: number | null;
  readonly quota: number | null;
  /** True when the browser will not evict the library under storage pressure. */
  readonly persisted: boolean | null;
}

interface StorageManagerLike {
  estimate?(): Promise<{ usage?: number; quota?: number }>;
  persisted?(): Promise<boolean>;
  persist?(): Promise<boolean>;
}

/**
 * `navigator.storage.estimate()`, and with `requestPersist` a `persist()` request (a page-only
 * API: in a worker it is absent and only `persisted()` is read).
 */
export async function storageUsage(options: { requestPersist?: boolean } = {}): Promise<StorageUsage> {
  const storage = (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
  if (!storage) return { usage: null, quota: null, persisted: null };
  const estimate = (await storage.estimate?.().catch(() => undefined)) ?? {};
  let persisted = (await storage.persisted?.().catch(() => undefined)) ?? null;
  if (options.requestPersist && persisted !== true && storage.persist) {
    persisted = await storage.persist().catch(() => persisted);
  }
  return { usage: estimate.usage ?? null, quota: estimate.quota ?? null, persisted };
}
