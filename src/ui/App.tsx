import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { DocumentMetaPatch } from '../core/library-format';
import type { AskStore } from './ask-store';
import type { BenchmarkStore } from './benchmark-store';
import type { BackupStore } from './backup-store';
import { AskPage } from './components/AskPage';
import { BenchmarkPage } from './components/BenchmarkPage';
import { Header } from './components/Header';
import { LibraryPage } from './components/LibraryPage';
import { Notices } from './components/Notices';
import { ocrMarks } from './ocr-marks';
import { ProfileNotice } from './components/ProfileNotice';
import { PassageDialog, type PassageTarget } from './components/PassageDialog';
import { SettingsPage } from './components/SettingsPage';
import { StatusStrip } from './components/StatusStrip';
import { statusLines } from './status-line';
import { Tabs, panelId, tabId, type TabSpec } from './components/Tabs';
import { DEMO_QUESTION } from './demo';
import type { IngestStore } from './ingest-store';
import type { EvidentSession } from './session';
import type { SettingsStore } from './settings-store';
import { toErrorValue } from './store';
import type { WorkerClient } from './worker-client';

export type Page = 'library' | 'ask' | 'settings' | 'benchmark';

const PAGES: readonly TabSpec<Page>[] = [
  { id: 'library', label: 'Library' },
  { id: 'ask', label: 'Ask' },
  { id: 'settings', label: 'Settings' },
  { id: 'benchmark', label: 'Benchmark' },
];

/** The page a URL hash names (#library, #ask, #settings, #benchmark), or null for any other hash. */
export function pageFromHash(hash: string): Page | null {
  const id = hash.replace(/^#/, '');
  return PAGES.some((p) => p.id === id) ? (id as Page) : null;
}

export interface AppProps {
  readonly session: EvidentSession;
  readonly ask: AskStore;
  readonly ingest: IngestStore;
  /** Library export / import (absent: the Library page shows no backup panel). */
  readonly backup?: BackupStore;
  readonly settings: SettingsStore;
  readonly benchmark: BenchmarkStore;
  readonly client: Pick<WorkerClient, 'readDocument' | 'readOriginal' | 'updateDocumentMeta'>;
}

export function App({ session, ask, ingest, backup, settings, benchmark, client }: AppProps) {
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const { jobs } = useSyncExternalStore(ingest.subscribe, ingest.getState);
  const [page, setPage] = useState<Page>(
    () => pageFromHash(typeof location === 'undefined' ? '' : location.hash) ?? 'library',
  );
  const [question, setQuestion] = useState<string | null>(null);
  const [passage, setPassage] = useState<PassageTarget | null>(null);

  const select = useCallback((p: Page) => {
    setPage(p);
    // The address names the page (reload, back to it) without scrolling to an anchor.
    history.replaceState(null, '', p === 'library' ? location.pathname + location.search : `#${p}`);
  }, []);
  useEffect(() => {
    const onHash = (): void => {
      const p = pageFromHash(location.hash);
      if (p) setPage(p);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const library = state.library;
  const docs =
    library.phase === 'ready' ? library.documents : library.phase === 'ingesting' ? (library.documents ?? []) : [];
  const ocr = ocrMarks(docs);
  const hasDemo = docs.some((d) => d.docId === 'demo-remote-work-v3');
  // The demo question is offered until the user types their own.
  const shownQuestion = question ?? (hasDemo ? DEMO_QUESTION : '');

  const onDismiss = useCallback((id: number) => session.dismissNotice(id), [session]);
  const onSaveDetails = useCallback(
    async (docId: string, patch: DocumentMetaPatch): Promise<string | null> => {
      try {
        await client.updateDocumentMeta(docId, patch);
        await session.refreshLibrary();
        return null;
      } catch (err) {
        return toErrorValue(err).message;
      }
    },
    [client, session],
  );
  const onPreview = useCallback((docId: string) => setPassage({ docId }), []);
  const readDocument = useCallback(
    (docId: string, options: { from: number; count: number }) => client.readDocument(docId, options),
    [client],
  );
  const readOriginal = useCallback((docId: string) => client.readOriginal(docId), [client]);
  const onOpenSettings = useCallback(() => select('settings'), [select]);
  const onTryDemo = useCallback(() => {
    setQuestion(DEMO_QUESTION);
    select('ask');
    void ask.ask(DEMO_QUESTION);
  }, [ask, select]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to the page
      </a>
      <Header />
      <nav className="tabs-bar" aria-label="Pages">
        <Tabs tabs={PAGES} selected={page} onSelect={select} label="Pages" />
      </nav>
      <StatusStrip
        lines={statusLines({ model: state.model, library: state.library, jobs, embedding: state.embedding })}
      />
      <main id="main" tabIndex={-1}>
        <Notices notices={state.notices} onDismiss={onDismiss} />
        <ProfileNotice store={settings} page={page} onOpenSettings={onOpenSettings} />
        {PAGES.map((p) => (
          <section
            key={p.id}
            role="tabpanel"
            id={panelId(p.id)}
            aria-labelledby={tabId(p.id)}
            hidden={page !== p.id}
            tabIndex={0}
            className="page"
          >
            {p.id === 'library' && (
              <LibraryPage
                session={session}
                state={state}
                ingest={ingest}
                {...(backup ? { backup } : {})}
                onSaveDetails={onSaveDetails}
                onPreview={onPreview}
                onTryDemo={onTryDemo}
              />
            )}
            {p.id === 'ask' && (
              <AskPage
                store={ask}
                question={shownQuestion}
                onQuestionChange={setQuestion}
                canAsk={docs.length > 0}
                onOpenPassage={setPassage}
                ocr={ocr}
              />
            )}
            {p.id === 'settings' && page === 'settings' && (
              <SettingsPage
                store={settings}
                embedder={state.model.phase === 'ready' ? state.model.info : null}
                pageIsolated={state.pageIsolated}
              />
            )}
            {p.id === 'benchmark' && <BenchmarkPage store={benchmark} modelReady={state.model.phase === 'ready'} />}
          </section>
        ))}
      </main>
      <PassageDialog
        target={passage}
        readDocument={readDocument}
        readOriginal={readOriginal}
        onClose={() => setPassage(null)}
      />
    </>
  );
}
