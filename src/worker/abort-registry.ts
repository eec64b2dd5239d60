import { EvidentError } from '../core/errors';

/**
 * Worker side of the abort channel (see `api.ts`): one AbortController per call id in flight.
 * A call registers itself synchronously on entry, before any await, so an `abort(id)` message,
 * which postMessage delivers after the call's own message, always finds it.
 */
export class AbortRegistry {
  private readonly controllers = new Map<string, AbortController>();

  /**
   * Registers a call. Returns its signal and a `done` to call in `finally`. Without an id the
   * call cannot be cancelled and gets a signal that never aborts.
   */
  begin(callId: string | undefined): { readonly signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    if (callId === undefined) return { signal: controller.signal, done: () => {} };
    if (typeof callId !== 'string' || callId === '') {
      throw new EvidentError('invalid_input', 'callId must be a non-empty string.');
    }
    if (this.controllers.has(callId)) {
      throw new EvidentError('invalid_input', `callId "${callId}" is already in flight; use a unique id per call.`);
    }
    this.controllers.set(callId, controller);
    return {
      signal: controller.signal,
      done: () => {
        if (this.controllers.get(callId) === controller) this.controllers.delete(callId);
      },
    };
  }

  /** Aborts the call registered under `callId`. False when none is in flight (finished or unknown). */
  abort(callId: string): boolean {
    const controller = this.controllers.get(callId);
    if (!controller) return false;
    this.controllers.delete(callId);
    controller.abort(new EvidentError('aborted', 'Cancelled.'));
    return true;
  }

  get size(): number {
    return this.controllers.size;
  }
}

// The worker's files import cancellation from here; the one helper lives in core/util.
export { throwIfAborted } from '../core/util/abort';
