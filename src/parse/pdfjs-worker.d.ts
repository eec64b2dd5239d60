/**
 * The `?url` imports of `pdfjs-files.ts`, for the tsconfigs without `vite/client` (Node's, which
 * reaches that file through `pdf.ts`): Vite turns each into the URL of the copied file.
 */
declare module 'pdfjs-dist/build/pdf.min.mjs?url' {
  const url: string;
  export default url;
}
declare module 'pdfjs-dist/build/pdf.worker.min.mjs?url' {
  const url: string;
  export default url;
}
