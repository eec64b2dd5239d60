import { describe, expect, it } from 'vitest';
import { formatBytes, formatMs, formatScore, percent } from './format';

describe('format', () => {
  it('formats bytes with binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(28 * 1024 * 1024)).toBe('28.0 MB');
    expect(formatBytes(-1)).toBe('–');
  });

  it('clamps percent and guards a zero or unknown total', () => {
    expect(percent(50, 200)).toBe(25);
    expect(percent(199, 200)).toBe(99);
    expect(percent(300, 200)).toBe(100);
    expect(percent(5, 0)).toBe(0);
    expect(percent(5, NaN)).toBe(0);
  });

  it('formats milliseconds and scores', () => {
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(2345)).toBe('2.35 s');
    expect(formatScore(0.016393)).toBe('0.0164');
    expect(formatScore(12.3456)).toBe('12.35');
    expect(formatScore(undefined)).toBe('–');
    expect(formatScore(NaN)).toBe('–');
  });
});
