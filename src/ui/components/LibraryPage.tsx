import { useCallback, useState } from 'react';
import type { DocumentMetaPatch } from '../../core/library-format';
import type { LibraryDocument } from '../../worker/api';
import { DEMO_QUERY, DEMO_QUESTION } from '../demo';
import type { BackupStore } from '../backup-store';
import type { IngestStore } from '../ingest-store';
import type { EvidentSession, SessionState } from '../session';
import { AddDocuments } from './AddDocuments';
import { ConfirmRemove } from './ConfirmRemove';
import { DocumentActions } from './DocumentActions';
import { LibraryBackup } from './LibraryBackup';
import { LibraryPanel } from './LibraryPanel';
import { ModelStatus } from './ModelStatus';
import { ResultList } from './ResultList';
import { SearchForm } from './SearchForm';
import { libraryTotals } from '../status-line';

interface Props {
  readonly session: EvidentSession;
  readonly state: SessionState;
  readonly ingest: IngestStore;
  /** Export / import of the whole library, and storage usage. */
  readonly backup?: BackupStore;
  readonly onSaveDetails: (docId: string, patch: DocumentMetaPatch) => Promise<string | null>;
  readonly onPreview: (docId: string) => void;
  /** Switches to Ask with the demo question and asks it. */
  readonly onTryDemo: () => void;
}

/** Search is open once the library is ready, and during an ingest once stored documents are listed. */
function searchable(state: SessionState): boolean {
  const library = state.library;
  return library.phase === 'ready' || (library.phase === 'ingesting' && (library.documents?.length ?? 0) > 0);
}

function documentsOf(state: SessionState): readonly LibraryDocument[] {
  const l = state.library;
  return l.phase === 'ready' ? l.documents : l.phase === 'ingesting' ? (l.documents ?? []) : [];
}

/** The Library page: the model, the documents (with their details), adding files, and passage search. */
export function LibraryPage({ session, state, ingest, backup, onSaveDetails, onPreview, onTryDemo }: Props) {
  const onSearch = useCallback((q: string) => void session.search(q), [session]);
  // Remove asks first, naming the document; confirmed, it leaves the list at once.
  const [confirming, setConfirming] = useState<{ docId: string; title: string } | null>(null);
  const docs = documentsOf(state);
  const onRemove = useCallback(
    (docId: string) => {
      const doc = docs.find((d) => d.docId === docId);
      if (doc) setConfirming({ docId, title: doc.title });
    },
    [docs],
  );
  const onConfirmRemove = useCallback(
    (docId: string) => {
      setConfirming(null);
      void session.deleteDocument(docId);
    },
    [session],
  );
  const renderActions = useCallback(
    (doc: LibraryDocument) => <DocumentActions doc={doc} onSave={onSaveDetails} onPreview={onPreview} />,
    [onSaveDetails, onPreview],
  );
  const chunks = docs.reduce((s, d) => s + d.chunks, 0);
  const hasDemo = docs.some((d) => d.docId.startsWith('demo-'));
  const modelReady = state.model.phase === 'ready';
  return (
    <div className="library-page">
      <AddDocuments
        store={ingest}
        documents={docs}
        enabled={modelReady}
        disabledReason={
          state.model.phase === 'error'
            ? `Files cannot be added: ${state.model.error.message}`
            : 'Files can be added once the embedding model has loaded (it sizes the chunks).'
        }
      />
      {hasDemo && state.library.phase === 'ready' && (
        <aside className="panel demo-callout" aria-label="Try the demo">
          <p>
            <strong>Demo library loaded:</strong> a current remote-work policy, the version it superseded, a blog post
            that contradicts both, and a travel policy. Ask “{DEMO_QUESTION}” to see which passages are kept, which are
            dropped, and why.
          </p>
          <button type="button" onClick={onTryDemo}>
            Ask the demo question
          </button>
        </aside>
      )}
      <p className="library-counts muted" data-testid="library-counts">
        {libraryTotals(docs)}
      </p>
      <LibraryPanel library={state.library} onRemove={onRemove} renderActions={renderActions} />
      <ModelStatus model={state.model} pageIsolated={state.pageIsolated} />
      {backup && <LibraryBackup store={backup} documents={docs.length} chunks={chunks} />}
      <SearchForm disabled={!searchable(state)} placeholder={DEMO_QUERY} onSearch={onSearch} />
      <ResultList search={state.search} />
      <ConfirmRemove doc={confirming} onConfirm={onConfirmRemove} onCancel={() => setConfirming(null)} />
    </div>
  );
}
