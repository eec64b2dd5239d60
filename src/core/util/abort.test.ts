import { describe, expect, it } from 'vitest';
import { EvidentError } from '../errors';
import { throwIfAborted } from './abort';

describe('throwIfAborted', () => {
  it('does nothing without a signal or before the abort', () => {
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal, 'Embedding')).not.toThrow();
  });

  it('throws the aborted code, naming the work when told what it was', () => {
    const controller = new AbortController();
    controller.abort();
    const thrown = (what?: string): EvidentError => {
      try {
        throwIfAborted(controller.signal, what);
      } catch (err) {
        return err as EvidentError;
      }
      throw new Error('expected a throw');
    };
    expect(thrown()).toMatchObject({ code: 'aborted', message: 'Cancelled.' });
    expect(thrown('Embedding')).toMatchObject({ code: 'aborted', message: 'Embedding was cancelled.' });
    expect(thrown()).toBeInstanceOf(EvidentError);
  });
});
