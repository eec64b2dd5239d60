import { describe, expect, it } from 'vitest';
import { EvidentError } from '../core/errors';
import { AbortRegistry, throwIfAborted } from './abort-registry';

describe('AbortRegistry', () => {
  it('aborts the call registered under an id, once', () => {
    const r = new AbortRegistry();
    const a = r.begin('a');
    const b = r.begin('b');
    expect(r.abort('a')).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    expect((a.signal.reason as EvidentError).code).toBe('aborted');
    expect(r.abort('a')).toBe(false);
    expect(() => throwIfAborted(a.signal)).toThrow(EvidentError);
    expect(() => throwIfAborted(b.signal)).not.toThrow();
  });

  it('forgets finished calls: a late abort is a no-op', () => {
    const r = new AbortRegistry();
    const a = r.begin('a');
    a.done();
    expect(r.size).toBe(0);
    expect(r.abort('a')).toBe(false);
    expect(a.signal.aborted).toBe(false);
  });

  it('rejects a duplicate id in flight and allows reuse after done', () => {
    const r = new AbortRegistry();
    const a = r.begin('x');
    expect(() => r.begin('x')).toThrow(/already in flight/);
    a.done();
    const again = r.begin('x');
    expect(r.abort('x')).toBe(true);
    expect(again.signal.aborted).toBe(true);
  });

  it('gives calls without an id a signal that cannot be aborted', () => {
    const r = new AbortRegistry();
    const c = r.begin(undefined);
    expect(r.size).toBe(0);
    expect(c.signal.aborted).toBe(false);
    expect(() => r.begin('')).toThrow(EvidentError);
  });
});
