/** pdf.js's worker module ships without types; importing it sets `globalThis.pdfjsWorker`. */
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
