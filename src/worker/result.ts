import { ERROR_CODES, EvidentError, type ErrorCode, type EvidentErrorValue } from '../core/errors';
import type { Result } from './api';

/**
 * Maps anything thrown inside the worker to an error value a user can act on. Known codes pass
 * through; aborts become 'aborted'; allocation failures become 'out_of_memory'; the rest is
 * 'internal' with the original message kept for the report.
 */
export function toErrorValue(err: unknown): EvidentErrorValue {
  if (err instanceof EvidentError) return err.toValue();
  if (isErrorValue(err)) return { code: err.code, message: err.message };
  const name = err instanceof Error || isDomException(err) ? (err as Error).name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'AbortError') return { code: 'aborted', message: 'Cancelled.' };
  if (name === 'QuotaExceededError') {
    return { code: 'storage_full', message: 'The browser refused to store more data. Free some space and retry.' };
  }
  if (err instanceof RangeError && /memory|allocation|Array buffer/i.test(message)) {
    return {
      code: 'out_of_memory',
      message: `The tab ran out of memory (${message}). Close other tabs or use a smaller library.`,
    };
  }
  return { code: 'internal', message: message || 'Unexpected error in the worker.' };
}

export function isErrorValue(value: unknown): value is EvidentErrorValue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { code?: unknown; message?: unknown };
  return (
    typeof v.message === 'string' && typeof v.code === 'string' && (ERROR_CODES as readonly string[]).includes(v.code)
  );
}

function isDomException(err: unknown): boolean {
  return typeof DOMException !== 'undefined' && err instanceof DOMException;
}

/** Runs `fn` and returns its value or its error as a `Result`; never throws. */
export async function asResult<T>(fn: () => Promise<T> | T): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: toErrorValue(err) };
  }
}

export function fail(code: ErrorCode, message: string): never {
  throw new EvidentError(code, message);
}
