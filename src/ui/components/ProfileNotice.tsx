import { useEffect, useState, useSyncExternalStore } from 'react';
import { PROFILE_LABEL } from '../labels';
import type { SettingsStore } from '../settings-store';

interface Props {
  readonly store: SettingsStore;
  /** The page shown: the notice is read afresh on each change, and stays off the Settings page (which says it itself). */
  readonly page: string;
  readonly onOpenSettings: () => void;
}

/**
 * What every page says about the model profile remembered from the last visit: while it loads at
 * startup, that Ask uses the Embedded profile until then; when it failed, why, and that the
 * Embedded profile is in use, with the way to Settings. (Without this a failed Enhanced load was
 * visible only on the Settings page and in the evidence trail.)
 */
export function ProfileNotice({ store, page, onOpenSettings }: Props) {
  const { profileLoad: load } = useSyncExternalStore(store.subscribe, store.getState);
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    if (page !== 'settings') void store.refreshModels();
  }, [store, page]);
  if (page === 'settings' || !('atStartup' in load) || load.atStartup !== true) return null;
  const label = PROFILE_LABEL[load.profile];
  if (load.phase === 'loading') {
    const p = load.progress;
    const share = p && p.totalBytes > 0 ? ` (${Math.round((100 * p.loadedBytes) / p.totalBytes)}%)` : '';
    return (
      <p className="notice" role="status" data-testid="profile-notice" data-state="loading">
        <span>
          Loading the {label} models you chose last time{share}. Until they are loaded, Ask uses the Embedded profile.
        </span>
      </p>
    );
  }
  const key = `${load.profile}:${load.error.message}`;
  if (dismissed === key) return null;
  return (
    <div className="notice notice-error" role="alert" data-testid="profile-notice" data-state="error">
      <span>
        The {label} models you chose could not be loaded when Evident started, so Ask uses the Embedded profile:{' '}
        {load.error.message}{' '}
        <button type="button" className="secondary small" onClick={onOpenSettings}>
          Open Settings
        </button>
      </span>
      <button type="button" onClick={() => setDismissed(key)} aria-label="Dismiss message">
        ×
      </button>
    </div>
  );
}
