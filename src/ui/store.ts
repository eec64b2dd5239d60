/**
 * The smallest external store React reads with `useSyncExternalStore`: immutable snapshots (a new
 * object on every change) and synchronous listeners. The page's stores (session, ask, ingest,
 * settings) live outside React so StrictMode's double effects never repeat their work.
 */
import type { EvidentErrorValue } from '../core/errors';

export class Store<S extends object> {
  private readonly listeners = new Set<() => void>();

  constructor(private state: S) {}

  readonly getState = (): S => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  protected set(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }
}

/** Any thrown value as an error value with a code the UI can show. */
export function toErrorValue(err: unknown): EvidentErrorValue {
  if (typeof err === 'object' && err !== null && 'code' in err && 'message' in err) {
    return { code: (err as EvidentErrorValue).code, message: (err as EvidentErrorValue).message };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}
