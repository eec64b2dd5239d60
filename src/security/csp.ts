/**
 * The app's Content Security Policy: the one source of truth for the `vite preview` headers
 * (vite.config.ts), the `<meta http-equiv>` fallback the build writes into index.html, the
 * `public/_headers` file and the nginx example (a unit test checks that the last two agree with
 * this module). Pure: runs in Node (the build) and in the page.
 *
 * Every source beyond `'self'` is here because a test needed it; each says why. The e2e suite
 * serves the build under this policy (test/e2e/security-csp.e2e.test.ts counts violations).
 */

/** A directive name → its sources, in the order they are written. */
export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/**
 * The Trusted Types policy the page creates (src/security/trusted-types.ts). It is the `default`
 * policy because the script URLs come from libraries that pass plain strings (Vite's worker
 * constructor, pdf.js's worker, the service worker registration): the default policy sees each one
 * and lets through only same-origin script URLs. It creates no HTML and no script.
 */
export const TRUSTED_TYPES_POLICY = 'default';

/** Hugging Face Hub hosts: the model pages and the storage their downloads redirect to. */
export const HUB_CONNECT_SOURCES: readonly string[] = Object.freeze([
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
]);

export const CSP_DIRECTIVES: CspDirectives = Object.freeze({
  // Nothing that is not named below: no frames, media, manifests or prefetches.
  'default-src': ["'none'"],
  // The bundles, the workers' imports and the WASM runtimes. 'wasm-unsafe-eval' compiles WASM
  // (TF.js, onnxruntime-web, tesseract.js, pdf.js's image decoders); no 'unsafe-eval', no inline.
  // blob: (only URLs this origin's own scripts made; a page cannot be given one from outside):
  // - Transformers.js imports onnxruntime-web's factory from a blob URL of the file it cached
  //   (`env.useWasmCache`; without blob: "Failed to fetch dynamically imported module: blob:…");
  // - threaded tfjs-backend-wasm's pthread workers `importScripts` a blob of its factory.
  'script-src': ["'self'", "'wasm-unsafe-eval'", 'blob:'],
  // The built CSS files only; React and pdf.js set styles through the CSSOM, which CSP allows.
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'font-src': ["'self'"],
  // Models, WASM, CMaps, fonts, traineddata: all fetched from the app's own origin. The Hub only
  // for the Enhanced models a person chose to download from huggingface.co in Settings (the
  // app's consent gate; models.e2e checks no request goes there before consent): its files
  // redirect to LFS/Xet storage hosts under huggingface.co and hf.co, which CSP checks too.
  'connect-src': ["'self'", ...HUB_CONNECT_SOURCES],
  // The app's worker, pdf.js's worker, tesseract.js's worker and the service worker; blob:
  // for threaded tfjs-backend-wasm, which starts its pthread workers from a blob URL.
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  // The app has no form that submits anywhere (the search form is handled in script).
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
});

/**
 * Trusted Types, a second policy for the document only (the built index.html carries it in a
 * `<meta>`): DOM XSS sinks (innerHTML, script URLs) take only values the app's `default` policy
 * let through. Not in the header, because a header reaches the workers too, and there libraries
 * pass plain strings to script sinks the worker has no policy for: threaded tfjs-backend-wasm's
 * `new Worker(url)` ("This document requires 'TrustedScriptURL' assignment", measured in the
 * app's worker) and, by its code, tesseract.js's `importScripts(corePath)`. A default policy in
 * each worker would let TT in there too (src/worker is not this module's to change). Workers
 * have no DOM to inject HTML into.
 */
export const DOCUMENT_CSP_DIRECTIVES: CspDirectives = Object.freeze({
  'require-trusted-types-for': ["'script'"],
  'trusted-types': [TRUSTED_TYPES_POLICY],
});

/**
 * Directives a `<meta http-equiv>` policy cannot carry: the browser ignores them there (CSP 3,
 * §"Enforcing multiple policies" / HTML's meta element). `frame-ancestors` is the one that
 * matters: where only the meta fallback applies, the app can be framed; set it as a header.
 */
export const HEADER_ONLY_DIRECTIVES: readonly string[] = Object.freeze(['frame-ancestors', 'report-uri', 'sandbox']);

/** `directives` as a policy string: `name src src; name src`. */
export function serializeCsp(directives: CspDirectives = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** The policy for a `<meta http-equiv="Content-Security-Policy">`: the header-only directives left out. */
export function metaCsp(directives: CspDirectives = CSP_DIRECTIVES): string {
  return serializeCsp(
    Object.fromEntries(Object.entries(directives).filter(([name]) => !HEADER_ONLY_DIRECTIVES.includes(name))),
  );
}

/** A policy string back to directives (for tests that compare a file's policy with this one). */
export function parseCsp(policy: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/u);
    if (name) out[name.toLowerCase()] = sources;
  }
  return out;
}

/** The policies the built index.html carries as `<meta http-equiv>`, in order: the app's, then Trusted Types. */
export function documentMetaPolicies(): string[] {
  return [metaCsp(CSP_DIRECTIVES), metaCsp(DOCUMENT_CSP_DIRECTIVES)];
}
