import { useOfflineReady } from '../service-worker';

export function Header() {
  const offline = useOfflineReady();
  return (
    <header className="app-header">
      <h1>Evident</h1>
      <p className="tagline">
        Private document Q&amp;A. Everything runs in this tab; no document leaves it.
        {offline && (
          <span className="offline-ready" data-testid="offline-ready">
            {' '}
            Works offline.
          </span>
        )}
      </p>
    </header>
  );
}
