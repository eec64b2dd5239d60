import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { DEMO_DOCUMENTS } from './demo';
import { EvidentSession } from './session';
import { WorkerClient } from './worker-client';
import './styles.css';

// One session per page, created outside React so StrictMode never starts a second worker.
const session = new EvidentSession(new WorkerClient(), DEMO_DOCUMENTS);
void session.start();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App session={session} />
  </StrictMode>,
);
