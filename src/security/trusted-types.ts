/**
 * The page's Trusted Types `default` policy (CSP `require-trusted-types-for 'script'`, see
 * src/security/csp.ts). Import it before anything that starts a worker.
 *
 * - Script URLs (workers, the service worker): only the app's own origin.
 * - HTML and script strings: none. The app renders text through React, never as HTML, so an
 *   `innerHTML` or `eval` anywhere is refused with a violation instead of running.
 */

/** The subset of the Trusted Types API the policy uses (lib.dom has no types for it yet). */
interface TrustedTypePolicyFactoryLike {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): unknown;
}

/** `url` when it is of `origin`; otherwise throws (the sink then refuses it). */
export function sameOriginScriptUrl(url: string, origin: string, base: string): string {
  const parsed = new URL(url, base);
  if (parsed.origin !== origin) throw new TypeError(`Refused a script from another origin: ${parsed.href}`);
  return url;
}

/** Creates the `default` policy where the browser supports Trusted Types; does nothing elsewhere. */
export function installTrustedTypesPolicy(): void {
  const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactoryLike }).trustedTypes;
  if (!factory) return;
  factory.createPolicy('default', {
    createScriptURL: (url) => sameOriginScriptUrl(url, location.origin, location.href),
  });
}

installTrustedTypesPolicy();
