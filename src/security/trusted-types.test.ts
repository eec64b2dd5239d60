import { describe, expect, it } from 'vitest';
import { sameOriginScriptUrl } from './trusted-types';

const ORIGIN = 'https://evident.example';
const PAGE = `${ORIGIN}/app/`;

describe('the Trusted Types default policy: script URLs', () => {
  it('lets through the app’s own scripts, relative or absolute, and blob: URLs this origin made', () => {
    expect(sameOriginScriptUrl('/app/assets/worker-abc.js', ORIGIN, PAGE)).toBe('/app/assets/worker-abc.js');
    expect(sameOriginScriptUrl('assets/pdf.worker.min.mjs', ORIGIN, PAGE)).toBe('assets/pdf.worker.min.mjs');
    expect(sameOriginScriptUrl(`${ORIGIN}/app/sw.js`, ORIGIN, PAGE)).toBe(`${ORIGIN}/app/sw.js`);
    const blob = `blob:${ORIGIN}/4f2c9f0e-1111-2222-3333-444455556666`;
    expect(sameOriginScriptUrl(blob, ORIGIN, PAGE)).toBe(blob);
  });

  it('refuses another origin, a CDN, javascript: and data: URLs', () => {
    for (const url of [
      'https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/ort.min.js',
      '//evil.example/x.js',
      'http://evident.example/app/x.js',
      'javascript:alert(1)',
      'data:text/javascript,alert(1)',
      'blob:https://evil.example/4f2c9f0e-1111-2222-3333-444455556666',
    ]) {
      expect(() => sameOriginScriptUrl(url, ORIGIN, PAGE), url).toThrow(/Refused a script from another origin/);
    }
  });
});
