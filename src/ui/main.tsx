// First: the Trusted Types policy must exist before anything starts a worker (src/security/csp.ts).
import '../security/trusted-types';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AskStore } from './ask-store';
import { BackupStore } from './backup-store';
import { BenchmarkStore } from './benchmark-store';
import { DEMO_DOCUMENTS } from './demo';
import { IngestStore } from './ingest-store';
import { EvidentSession } from './session';
import { cacheOcrFiles, cacheOnnxRuntime, registerServiceWorker } from './service-worker';
import { SettingsStore } from './settings-store';
import { WorkerClient } from './worker-client';
import './styles.css';

// One session per page, created outside React so StrictMode never starts a second worker.
const client = new WorkerClient();
const session = new EvidentSession(client, DEMO_DOCUMENTS);
const ask = new AskStore(client);
// A scanned page was OCR'd: the service worker keeps tesseract.js's files for offline use.
const ingest = new IngestStore(client, {
  onLibraryChanged: () => void session.refreshLibrary(),
  onOcrUsed: () => cacheOcrFiles(),
});
const backup = new BackupStore(client, { onLibraryChanged: () => void session.refreshLibrary() });
// A loaded profile runs on onnxruntime-web: the service worker keeps it for offline use.
const settings = new SettingsStore(client, { onProfileReady: () => cacheOnnxRuntime() });
const benchmark = new BenchmarkStore(client);
client.subscribe((e) => {
  // A restarted worker has reloaded the library but not the settings it reports.
  if (e.type === 'restarted') void settings.load();
});
void session.start();
// Settings are read once now, so the Settings page shows them at once (and refreshes them).
void settings.load();
// Offline use after the first visit (built app only; the dev server has no service worker).
registerServiceWorker(import.meta.env.BASE_URL);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App
      session={session}
      ask={ask}
      ingest={ingest}
      backup={backup}
      settings={settings}
      benchmark={benchmark}
      client={client}
    />
  </StrictMode>,
);
