import { useCallback, useSyncExternalStore } from 'react';
import { Header } from './components/Header';
import { LibraryPanel } from './components/LibraryPanel';
import { ModelStatus } from './components/ModelStatus';
import { Notices } from './components/Notices';
import { ResultList } from './components/ResultList';
import { SearchForm } from './components/SearchForm';
import { DEMO_QUERY } from './demo';
import type { EvidentSession, LibraryState } from './session';

/** Search is open once the library is ready, and during an ingest once stored documents are listed. */
function searchable(library: LibraryState): boolean {
  return library.phase === 'ready' || (library.phase === 'ingesting' && (library.documents?.length ?? 0) > 0);
}

export function App({ session }: { readonly session: EvidentSession }) {
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const onSearch = useCallback((q: string) => void session.search(q), [session]);
  const onDismiss = useCallback((id: number) => session.dismissNotice(id), [session]);
  const onAddFiles = useCallback((files: File[]) => void session.addFiles(files), [session]);
  const onRemove = useCallback((docId: string) => void session.deleteDocument(docId), [session]);
  return (
    <>
      <a className="skip-link" href="#query">
        Skip to search
      </a>
      <Header />
      <main>
        <Notices notices={state.notices} onDismiss={onDismiss} />
        <div className="status-grid">
          <ModelStatus model={state.model} pageIsolated={state.pageIsolated} />
          <LibraryPanel
            library={state.library}
            onAddFiles={state.model.phase === 'ready' ? onAddFiles : undefined}
            onRemove={onRemove}
          />
        </div>
        <SearchForm disabled={!searchable(state.library)} placeholder={DEMO_QUERY} onSearch={onSearch} />
        <ResultList search={state.search} />
      </main>
    </>
  );
}
