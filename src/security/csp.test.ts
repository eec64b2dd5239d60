import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PREVIEW_HEADERS } from '../../vite.config';
import {
  CSP_DIRECTIVES,
  DOCUMENT_CSP_DIRECTIVES,
  documentMetaPolicies,
  HEADER_ONLY_DIRECTIVES,
  HUB_CONNECT_SOURCES,
  metaCsp,
  parseCsp,
  serializeCsp,
} from './csp';

const read = (path: string): Promise<string> => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

/** `Name: value` lines under the `/*` rule of a `_headers` file. */
function headersFileRule(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inRule = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      inRule = line.trim() === '/*';
      continue;
    }
    const at = line.indexOf(':');
    if (inRule && at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The values of `add_header NAME "value" always;` at the top of nginx's server block, by name. */
function nginxHeaders(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of text.matchAll(/^\s*add_header\s+(\S+)\s+"([^"]*)"\s+always;/gmu)) {
    (out[m[1] ?? ''] ??= []).push(m[2] ?? '');
  }
  return out;
}

describe('the Content Security Policy', () => {
  it('is strict: no inline or eval script, same-origin connections, no plugins, no base, not framed', () => {
    const p = parseCsp(serializeCsp());
    expect(p['default-src']).toEqual(["'none'"]);
    expect(p['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", 'blob:']);
    // The origin, and the Hub only for models a person chose to download (Settings asks first).
    expect(p['connect-src']).toEqual(["'self'", ...HUB_CONNECT_SOURCES]);
    expect(HUB_CONNECT_SOURCES.every((h) => /^https:\/\/(\*\.)?(huggingface\.co|hf\.co)$/u.test(h))).toBe(true);
    expect(p['object-src']).toEqual(["'none'"]);
    expect(p['base-uri']).toEqual(["'none'"]);
    expect(p['frame-ancestors']).toEqual(["'none'"]);
    const all = Object.values(p).flat();
    for (const weak of ["'unsafe-inline'", "'unsafe-eval'", 'data:', '*', 'http:', 'https:']) {
      expect(all, weak).not.toContain(weak);
    }
  });

  it('round-trips through parseCsp', () => {
    expect(parseCsp(serializeCsp())).toEqual(Object.fromEntries(Object.entries(CSP_DIRECTIVES)));
  });

  it('leaves the header-only directives out of the <meta> policies, and puts Trusted Types in the document only', () => {
    expect(Object.keys(parseCsp(metaCsp()))).not.toContain('frame-ancestors');
    expect(parseCsp(metaCsp())).toEqual(
      Object.fromEntries(Object.entries(CSP_DIRECTIVES).filter(([n]) => !HEADER_ONLY_DIRECTIVES.includes(n))),
    );
    const [app, tt] = documentMetaPolicies();
    expect(app).toBe(metaCsp());
    expect(parseCsp(tt ?? '')).toEqual({
      'require-trusted-types-for': ["'script'"],
      'trusted-types': DOCUMENT_CSP_DIRECTIVES['trusted-types'],
    });
    expect(serializeCsp()).not.toMatch(/trusted-types/);
  });

  it('is the one the preview server sends (the e2e suite runs under it)', () => {
    expect(PREVIEW_HEADERS['Content-Security-Policy']).toBe(serializeCsp());
    expect(PREVIEW_HEADERS['Cross-Origin-Embedder-Policy']).toBe('require-corp');
  });

  it('is the one public/_headers sends, next to the cross-origin-isolation headers', async () => {
    const rule = headersFileRule(await read('public/_headers'));
    expect(rule).toEqual({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Content-Security-Policy': serializeCsp(),
    });
  });

  it('is the one the documented nginx config sends, on every response and on sw.js', async () => {
    const headers = nginxHeaders(await read('scripts/nginx-evident.conf'));
    expect(headers['Content-Security-Policy']).toEqual([serializeCsp(), serializeCsp()]);
    expect(headers['Cross-Origin-Opener-Policy']).toEqual(['same-origin', 'same-origin']);
    expect(headers['Cross-Origin-Embedder-Policy']).toEqual(['require-corp', 'require-corp']);
  });

  it('needs nothing inline in index.html: every script is a file, no handler attribute, no data: URL', async () => {
    const html = await read('index.html');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/giu)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/u);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/iu);
    expect(html).not.toMatch(/data:/iu);
    expect(html).not.toMatch(/<style\b|\sstyle=/iu);
  });
});
