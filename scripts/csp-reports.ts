/**
 * CSP violation reports for the e2e suite: with env `EVIDENT_CSP_REPORT_FILE` set, the `vite
 * preview` server's policy gains `report-uri` and the server appends each report it receives to
 * that file, one JSON document a line. It is how a test counts violations in the workers (the
 * app's, pdf.js's, tesseract.js's, TF.js's pthreads) and the service worker, where a page's
 * `securitypolicyviolation` listener cannot see them. Unset (the default, and every shipped
 * build), the policy is exactly src/security/csp.ts's and no endpoint exists.
 */
import { appendFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'vite';

/** The report endpoint, under the app's base path. */
export const CSP_REPORT_PATH = '__csp-report';

/** The file reports go to, or null when reporting is off. */
export function cspReportFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env.EVIDENT_CSP_REPORT_FILE;
  return file === undefined || file === '' ? null : file;
}

/** `policy` with the report endpoint under `base` added. */
export function withReportUri(policy: string, base: string): string {
  return `${policy}; report-uri ${base}${CSP_REPORT_PATH}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolveBody(body));
    req.on('error', reject);
  });
}

/** The preview server's report endpoint, writing to `file` (a no-op plugin when `file` is null). */
export function cspReportPlugin(file: string | null): Plugin {
  return {
    name: 'evident-csp-reports',
    apply: 'serve',
    configurePreviewServer(server) {
      if (file === null) return;
      server.middlewares.use((req, res, next) => {
        if (req.method !== 'POST' || !req.url?.includes(`/${CSP_REPORT_PATH}`)) return next();
        void readBody(req)
          .then((body) => appendFile(file, `${body.replace(/\s*\n\s*/gu, ' ')}\n`))
          .then(
            () => {
              res.statusCode = 204;
              res.end();
            },
            (err: unknown) => next(err),
          );
      });
    },
  };
}
