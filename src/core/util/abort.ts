/**
 * Cancellation between steps of long work. Core compiles without DOM types, so it names the part
 * of `AbortSignal` it reads instead of the global; a real `AbortSignal` satisfies it.
 */
import { EvidentError } from '../errors';

export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

/**
 * Throws the quiet `aborted` error when the signal has fired: "Cancelled.", or "<what> was
 * cancelled." when the caller names the work ("Embedding", "Loading Xenova/bge-small-en-v1.5").
 */
export function throwIfAborted(signal: AbortSignalLike | undefined, what?: string): void {
  if (signal?.aborted) throw new EvidentError('aborted', what === undefined ? 'Cancelled.' : `${what} was cancelled.`);
}
