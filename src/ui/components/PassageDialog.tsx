import { useEffect, useRef, useState } from 'react';
import type { EvidentErrorValue } from '../../core/errors';
import type { OriginalFile } from '../../worker/api';
import type { DocumentPassage, DocumentView } from '../../worker/ask-api';
import { displayBlocks } from '../chunk-text';
import { plural } from '../format';
import { SOURCE_TYPE_LABEL, STATUS_LABEL } from '../labels';
import { highlightSegments, inlineSegments } from '../rich-text';
import { toErrorValue } from '../store';
import { ChunkTable, Segments } from './ChunkText';
import { PdfPageView } from './PdfPageView';

/** What the dialog shows: a document from its start (preview), or a cited passage in its context. */
export interface PassageTarget {
  readonly docId: string;
  /** The cited chunk, highlighted; absent for a preview. */
  readonly chunkId?: string;
  readonly citationId?: string;
  /** Answer sentences to mark inside the cited passage. */
  readonly highlights?: readonly string[];
  /**
   * `page`: a PDF citation opens on its page (`PdfPageView`) when the PDF's bytes are stored;
   * `text` (default): the passage view, with a button to the page. Either has a way to the other.
   */
  readonly view?: 'page' | 'text';
}

interface Props {
  readonly target: PassageTarget | null;
  readonly readDocument: (docId: string, options: { from: number; count: number }) => Promise<DocumentView>;
  /** A PDF's stored bytes and page ranges: with them a PDF citation opens on its page. */
  readonly readOriginal?: (docId: string) => Promise<OriginalFile | null>;
  readonly onClose: () => void;
}

/** Passages shown before and after a cited one, and how many more each "show more" reads. */
const CONTEXT = 2;
const PREVIEW = 20;

function ordinalOf(chunkId: string): number {
  const n = Number(chunkId.slice(chunkId.lastIndexOf('#') + 1));
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/**
 * A modal side panel (full screen on a phone) with a document's passages: for a citation, the
 * cited passage highlighted between its neighbours, with section and page; for a preview, the
 * document from its start. Text only, never HTML. Esc or the close button closes it, and focus
 * returns to what opened it. A citation of a PDF whose bytes are stored opens on its page
 * instead (`PdfPageView`), with a way back to the passage text and from there to the page.
 */
export function PassageDialog({ target, readDocument, readOriginal, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [view, setView] = useState<{ key: string; doc: DocumentView; from: number; to: number } | null>(null);
  const [error, setError] = useState<{ key: string; error: EvidentErrorValue } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const key = target ? `${target.docId}|${target.chunkId ?? ''}` : '';
  const [original, setOriginal] = useState<{ key: string; file: OriginalFile | null } | null>(null);
  // The view the user switched to, for this opening of the dialog (a new target starts afresh).
  const [chosen, setChosen] = useState<{ target: PassageTarget; view: 'page' | 'text' } | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (target && !dialog.open) dialog.showModal();
    if (!target && dialog.open) dialog.close();
  }, [target]);

  useEffect(() => {
    if (!target) return;
    let live = true;
    const k = `${target.docId}|${target.chunkId ?? ''}`;
    const from = target.chunkId ? Math.max(0, ordinalOf(target.chunkId) - CONTEXT) : 0;
    const count = target.chunkId ? 2 * CONTEXT + 1 : PREVIEW;
    readDocument(target.docId, { from, count }).then(
      (doc) => {
        if (live) setView({ key: k, doc, from: doc.from, to: doc.from + doc.passages.length });
      },
      (err: unknown) => {
        if (live) setError({ key: k, error: toErrorValue(err) });
      },
    );
    return () => {
      live = false;
    };
  }, [target, readDocument]);

  const docFormat = view && view.key === key ? view.doc.format : null;
  useEffect(() => {
    if (!target?.chunkId || docFormat !== 'pdf' || !readOriginal) return;
    let live = true;
    const k = `${target.docId}|${target.chunkId}`;
    // No bytes (stored before they were kept, or unreadable): the passage view, as before.
    readOriginal(target.docId).then(
      (file) => {
        if (live) setOriginal({ key: k, file });
      },
      () => {
        if (live) setOriginal({ key: k, file: null });
      },
    );
    return () => {
      live = false;
    };
  }, [target, docFormat, readOriginal]);

  const more = async (direction: 'before' | 'after'): Promise<void> => {
    if (!view || !target) return;
    const step = target.chunkId ? 3 : PREVIEW;
    const from = direction === 'before' ? Math.max(0, view.from - step) : view.to;
    const count = direction === 'before' ? view.from - from : Math.min(step, view.doc.total - view.to);
    if (count <= 0) return;
    setLoadingMore(true);
    try {
      const extra = await readDocument(target.docId, { from, count });
      setView((v) =>
        v && v.key === view.key
          ? {
              ...v,
              doc: {
                ...v.doc,
                passages:
                  direction === 'before'
                    ? [...extra.passages, ...v.doc.passages]
                    : [...v.doc.passages, ...extra.passages],
              },
              from: Math.min(v.from, from),
              to: Math.max(v.to, from + extra.passages.length),
            }
          : v,
      );
    } catch (err) {
      setError({ key: view.key, error: toErrorValue(err) });
    }
    setLoadingMore(false);
  };

  const current = view && view.key === key ? view : null;
  const shownKey = current?.key ?? null;
  // Once a citation's passages are in, bring the cited one into view (its neighbours come first).
  useEffect(() => {
    if (shownKey === null) return;
    ref.current?.querySelector('.passage-cited')?.scrollIntoView({ block: 'center' });
  }, [shownKey]);
  const failed = error && error.key === key ? error.error : null;
  const loading = loadingMore || (target !== null && current === null && failed === null);
  const doc = current?.doc ?? null;
  const cited = target?.chunkId ? doc?.passages.find((p) => p.id === target.chunkId) : undefined;
  const title = doc?.title ?? 'Document';
  const file = original && original.key === key ? original.file : null;
  const wanted = chosen && chosen.target === target ? chosen.view : (target?.view ?? 'text');
  const onPage = file !== null && cited !== undefined && wanted === 'page';
  // Back from the page to the text: the cited passage in view again.
  const backToText = !onPage && chosen !== null && chosen.target === target;
  useEffect(() => {
    if (backToText) ref.current?.querySelector('.passage-cited')?.scrollIntoView({ block: 'center' });
  }, [backToText]);
  return (
    <dialog
      ref={ref}
      className={`passage-dialog${onPage ? ' passage-dialog-wide' : ''}`}
      aria-labelledby="passage-dialog-title"
      data-testid="passage-dialog"
      onClose={onClose}
    >
      <div className="dialog-head">
        <div>
          <p className="muted dialog-kicker">
            {target?.citationId ? `Source ${target.citationId}` : 'Preview'}
            {cited?.page != null && <span data-testid="passage-page"> · Page {cited.page}</span>}
          </p>
          <h2 id="passage-dialog-title">{title}</h2>
          {doc && (
            <p className="muted">
              {SOURCE_TYPE_LABEL[doc.sourceType]} ·{' '}
              <span className={`badge badge-${doc.status}`}>{STATUS_LABEL[doc.status]}</span>
              {doc.effectiveDate && ` · effective ${doc.effectiveDate}`}
              {doc.pageCount !== null && ` · ${plural(doc.pageCount, 'page')}`} · {plural(doc.total, 'passage')}
            </p>
          )}
        </div>
        <button type="button" className="icon-button" aria-label="Close" onClick={() => ref.current?.close()}>
          ×
        </button>
      </div>
      {!onPage && (
        <div className="dialog-body">
          {file !== null && cited !== undefined && (
            <button
              type="button"
              className="link-button small"
              onClick={() => target && setChosen({ target, view: 'page' })}
              data-testid="show-page"
            >
              Show on the PDF page
            </button>
          )}
          {failed && (
            <p className="error" role="alert">
              {failed.message}
            </p>
          )}
          {current && current.from > 0 && (
            <button type="button" className="secondary small" disabled={loading} onClick={() => void more('before')}>
              Show earlier passages
            </button>
          )}
          {doc && (
            <ol className="passages" start={current ? current.from + 1 : 1}>
              {doc.passages.map((p, i) => (
                <Passage
                  key={p.id}
                  passage={p}
                  previous={doc.passages[i - 1]}
                  cited={p.id === target?.chunkId}
                  citationId={target?.citationId}
                  highlights={target?.highlights ?? []}
                />
              ))}
            </ol>
          )}
          {loading && !doc && <p className="muted">Reading the document…</p>}
          {current && current.to < current.doc.total && (
            <button type="button" className="secondary small" disabled={loading} onClick={() => void more('after')}>
              Show later passages
            </button>
          )}
        </div>
      )}
      {onPage && (
        <div className="dialog-body dialog-body-pdf">
          <PdfPageView
            original={file}
            span={cited}
            citationId={target?.citationId}
            onShowPassage={() => target && setChosen({ target, view: 'text' })}
          />
        </div>
      )}
    </dialog>
  );
}

function Passage({
  passage,
  previous,
  cited,
  citationId,
  highlights,
}: {
  readonly passage: DocumentPassage;
  readonly previous: DocumentPassage | undefined;
  readonly cited: boolean;
  readonly citationId: string | undefined;
  readonly highlights: readonly string[];
}) {
  const trail = passage.headings.join(' › ');
  const showTrail = trail !== '' && trail !== previous?.headings.join(' › ');
  const showPage = passage.page !== null && passage.page !== previous?.page;
  const blocks = displayBlocks(passage.text, passage.headings, passage.context);
  return (
    <li
      className={`passage${cited ? ' passage-cited' : ''}`}
      data-chunk-id={passage.id}
      data-page={passage.page ?? undefined}
      aria-current={cited ? 'true' : undefined}
    >
      {(showTrail || showPage || cited) && (
        <p className="passage-where muted">
          {cited && <span className="cited-label">Cited passage{citationId ? ` ${citationId}` : ''}</span>}
          {showTrail && <span>{trail}</span>}
          {(showPage || cited) && passage.page !== null && <span>Page {passage.page}</span>}
        </p>
      )}
      {blocks.map((b, i) =>
        b.table ? (
          <ChunkTable
            key={i}
            table={b.table}
            cell={(c) => (cited ? highlightSegments(c, highlights) : inlineSegments(c))}
          />
        ) : (
          <p key={i} className={b.preserveLines && !cited ? 'lines' : undefined}>
            <Segments segments={cited ? highlightSegments(b.text, highlights) : inlineSegments(b.text)} />
          </p>
        ),
      )}
    </li>
  );
}
