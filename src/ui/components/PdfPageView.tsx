import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { wordsInSpan } from '../../parse/ocr-words';
import { locateSpan, pageParts, type PagePart } from '../../parse/pdf-locate';
import type { OriginalFile } from '../../worker/api';
import { ocrLayerElements, ocrWordBoxes } from '../ocr-layer';
import { loadPdfjs, openPdf, type PdfDocument } from '../pdf-view';

/** The cited passage: the chunk's text and its offsets in the document text. */
export interface CitedSpan {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

interface Props {
  readonly original: OriginalFile;
  readonly span: CitedSpan;
  readonly citationId?: string | undefined;
  /** Back to the passage text view. */
  readonly onShowPassage: () => void;
}

const ZOOM_STEPS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3] as const;

/**
 * The original PDF page of a citation: pdf.js draws the page on a canvas with its text layer on
 * top, and the cited span is marked in the text layer (`locateSpan`: the chunk's characters on
 * this page → the page's text items). A scanned page has no text layer: the words OCR read there
 * (kept with the original) are laid over the image instead, and the words whose place in the
 * page's text meets the span are marked (`wordsInSpan`). A span across a page break is marked on
 * both pages.
 * Keys while the view has focus: ←/PageUp and →/PageDown change page, + and − zoom, 0 fits the
 * width; Esc closes the dialog around it (the `<dialog>` does that, and holds focus while open).
 */
export function PdfPageView({ original, span, citationId, onShowPassage }: Props) {
  const parts = useMemo(
    () => pageParts(original.pages, span.start, span.end, (s, e) => span.text.slice(s - span.start, e - span.start)),
    [original, span],
  );
  const firstPage = parts[0]?.page ?? 1;
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(firstPage);
  const [zoom, setZoom] = useState(1);
  // The width the page is fitted to: the scroller's, followed as it changes (a dialog that is still
  // opening, a phone turned sideways), so zoom 1 always fits the page to the width it is shown in.
  const [width, setWidth] = useState(0);
  const [rendered, setRendered] = useState<{ page: number; marked: number } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  // pdf.js refuses a second render on a canvas until the first has ended: each draw waits for the last.
  const lastDraw = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(() => {
    let live = true;
    let opened: PdfDocument | null = null;
    // pdf.js takes over the buffer it reads: hand it a copy, the original stays for a reopen.
    openPdf(original.bytes.slice()).then(
      (d) => {
        opened = d;
        if (live) setDoc(d);
        else void d.destroy();
      },
      (err: unknown) => {
        if (live) setError(`This PDF could not be shown: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    return () => {
      live = false;
      void opened?.destroy();
    };
  }, [original]);

  const pageCount = doc?.numPages ?? 0;
  const go = useCallback(
    (to: number) => setPage((p) => (pageCount === 0 ? p : Math.min(Math.max(1, to), pageCount))),
    [pageCount],
  );

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const measure = (): void => setWidth(Math.round(scroller.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  // Draw the page, its text layer and the marks of the cited span.
  useEffect(() => {
    if (!doc || width === 0) return;
    let cancelled = false;
    let renderTask: { cancel(): void; promise: Promise<void> } | null = null;
    let textLayer: { cancel(): void } | null = null;
    const previous = lastDraw.current;
    const draw = (async () => {
      await previous.catch(() => {});
      if (cancelled) return;
      const [lib, pdfPage] = await Promise.all([loadPdfjs(), doc.getPage(page)]);
      const canvas = canvasRef.current;
      const layer = layerRef.current;
      const scroller = scrollerRef.current;
      if (cancelled || !canvas || !layer || !scroller) return;
      const base = pdfPage.getViewport({ scale: 1 });
      // Zoom 1 fits the page to the panel's width (less the page's margin).
      const fit = Math.max(0.25, (width - 24) / base.width);
      const scale = fit * zoom;
      const viewport = pdfPage.getViewport({ scale });
      const ratio = globalThis.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('This browser gave no canvas to draw on.');
      renderTask = pdfPage.render({
        canvas,
        canvasContext: context,
        viewport,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      // A render cancelled (or cut off by the document's destroy) rejects with a pdf.js exception.
      // It is awaited below or by the next draw, but when the dialog closes first neither runs:
      // without this handler that rejection is an unhandled error on the page.
      renderTask.promise.catch(() => {});
      layer.replaceChildren();
      layer.style.setProperty('--total-scale-factor', String(scale));
      const part = parts.find((p) => p.page === page);
      const range = original.pages.find((p) => p.page === page);
      if (range?.words && range.words.text.length > 0) {
        // A scanned page: its text came from these words, not from a text layer.
        const hits = part ? wordsInSpan(range.words, part.start - range.start, part.end - range.start) : [];
        layer.replaceChildren(
          ...ocrLayerElements(document, ocrWordBoxes(range.words, new Set(hits)), base.width, base.height),
        );
        await renderTask.promise;
        if (cancelled) return;
        setRendered({ page, marked: hits.length });
        layer.querySelector('mark')?.scrollIntoView({ block: 'center', inline: 'nearest' });
        return;
      }
      const content = await pdfPage.getTextContent();
      if (cancelled) return;
      const tl = new lib.TextLayer({ textContentSource: content, container: layer, viewport });
      textLayer = tl;
      await Promise.all([renderTask.promise, tl.render()]);
      if (cancelled) return;
      const marked = part ? markSpan(tl.textDivs, tl.textContentItemsStr, partText(span, part)) : 0;
      setRendered({ page, marked });
      layer.querySelector('mark')?.scrollIntoView({ block: 'center', inline: 'nearest' });
    })();
    // The next draw waits for this one's render to end, however it ends; this chain never rejects.
    lastDraw.current = draw.then(() => renderTask?.promise).catch(() => undefined);
    draw.catch((err: unknown) => {
      if (cancelled || (err as { name?: string })?.name === 'RenderingCancelledException') return;
      setError(`This page could not be drawn: ${err instanceof Error ? err.message : String(err)}`);
    });
    return () => {
      cancelled = true;
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [doc, page, zoom, width, parts, span, original]);

  // Keyboard: the dialog's keys reach the view wherever focus is inside it.
  useEffect(() => {
    const dialog = rootRef.current?.closest('dialog');
    if (!dialog) return;
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const step =
        (e.key === 'ArrowLeft' || e.key === 'PageUp' ? -1 : 0) +
        (e.key === 'ArrowRight' || e.key === 'PageDown' ? 1 : 0);
      if (step !== 0) {
        e.preventDefault();
        setPage((p) => Math.min(Math.max(1, p + step), pageCount || p));
      } else if (e.key === '+' || e.key === '=') {
        e.preventDefault();
        setZoom((z) => nextZoom(z, 1));
      } else if (e.key === '-') {
        e.preventDefault();
        setZoom((z) => nextZoom(z, -1));
      } else if (e.key === '0') {
        e.preventDefault();
        setZoom(1);
      }
    };
    dialog.addEventListener('keydown', onKey);
    return () => dialog.removeEventListener('keydown', onKey);
  }, [pageCount]);

  // The page with the cited span gets focus once shown, so the keys work at once.
  useEffect(() => {
    if (doc) scrollerRef.current?.focus({ preventScroll: true });
  }, [doc]);

  const printed = original.pages.find((p) => p.page === page)?.label;
  const citedPages = parts.map((p) => p.page);
  const onCitedPage = citedPages.includes(page);
  const otherCited = citedPages.filter((p) => p !== page);
  return (
    <div
      className="pdf-view"
      ref={rootRef}
      data-testid="pdf-page-view"
      data-page={page}
      data-rendered={rendered?.page ?? 0}
      data-zoom={zoom}
    >
      <div className="pdf-toolbar" role="toolbar" aria-label="Page">
        <button type="button" className="secondary small" onClick={() => go(page - 1)} disabled={page <= 1}>
          ‹ Previous
        </button>
        <span className="pdf-page-number" aria-live="polite" data-testid="pdf-page-number">
          Page {page}
          {pageCount > 0 && ` of ${pageCount}`}
          {printed !== undefined && printed !== String(page) && (
            <span className="muted" data-testid="pdf-page-label">
              {' '}
              · printed {printed}
            </span>
          )}
        </span>
        <button
          type="button"
          className="secondary small"
          onClick={() => go(page + 1)}
          disabled={pageCount === 0 || page >= pageCount}
        >
          Next ›
        </button>
        <span className="pdf-zoom">
          <button
            type="button"
            className="secondary small"
            aria-label="Zoom out"
            onClick={() => setZoom((z) => nextZoom(z, -1))}
          >
            −
          </button>
          <button type="button" className="secondary small" aria-label="Fit to width" onClick={() => setZoom(1)}>
            {Math.round(zoom * 100)}%
          </button>
          <button
            type="button"
            className="secondary small"
            aria-label="Zoom in"
            onClick={() => setZoom((z) => nextZoom(z, 1))}
          >
            +
          </button>
        </span>
        <button type="button" className="link-button small" onClick={onShowPassage} data-testid="show-passage">
          Passage text
        </button>
      </div>
      <p className="muted pdf-where" data-testid="pdf-where">
        {parts.length === 0
          ? 'The cited passage could not be placed on a page.'
          : `Cited passage${citationId ? ` ${citationId}` : ''} on page${citedPages.length > 1 ? 's' : ''} ${citedPages.join(' and ')}`}
        {onCitedPage && rendered?.page === page && rendered.marked === 0 && ' (not found in this page’s text layer)'}
        {otherCited.length > 0 && onCitedPage && (
          <>
            {' · '}
            <button type="button" className="link-button" onClick={() => go(otherCited[0] as number)}>
              continues on page {otherCited[0]}
            </button>
          </>
        )}
        {!onCitedPage && parts.length > 0 && (
          <>
            {' · '}
            <button type="button" className="link-button" onClick={() => go(firstPage)}>
              back to page {firstPage}
            </button>
          </>
        )}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div
        className="pdf-scroller"
        ref={scrollerRef}
        tabIndex={0}
        aria-label={`Page ${page} of the PDF${onCitedPage ? ', with the cited passage highlighted' : ''}`}
      >
        {!doc && !error && <p className="muted">Opening the PDF…</p>}
        <div className="pdf-page">
          <canvas ref={canvasRef} aria-hidden="true" />
          <div className="textLayer pdf-text-layer" ref={layerRef} />
        </div>
      </div>
    </div>
  );
}

function nextZoom(z: number, direction: 1 | -1): number {
  const i = ZOOM_STEPS.findIndex((s) => s >= z - 1e-6);
  const at = i < 0 ? ZOOM_STEPS.length - 1 : i;
  return ZOOM_STEPS[Math.min(Math.max(0, at + direction), ZOOM_STEPS.length - 1)] as number;
}

/** The span's characters on one page. */
function partText(span: CitedSpan, part: PagePart): string {
  return span.text.slice(part.start - span.start, part.end - span.start);
}

/**
 * Wraps the span's characters in each text-layer element in `<mark>` (the element's own text
 * split in three nodes, so its position and scaling stay pdf.js's). Returns how many marks.
 */
function markSpan(divs: readonly HTMLElement[], strings: readonly string[], text: string): number {
  let marks = 0;
  for (const r of locateSpan(text, strings)) {
    const div = divs[r.item];
    const str = strings[r.item];
    if (!div || str === undefined || div.textContent !== str) continue;
    const mark = document.createElement('mark');
    mark.className = 'pdf-hit';
    mark.textContent = str.slice(r.start, r.end);
    div.replaceChildren(str.slice(0, r.start), mark, str.slice(r.end));
    marks++;
  }
  return marks;
}
