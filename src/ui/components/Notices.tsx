import type { Notice } from '../session';

interface Props {
  readonly notices: readonly Notice[];
  readonly onDismiss: (id: number) => void;
}

/** Messages about the worker (crash, restart). Errors are alerts; info is polite. */
export function Notices({ notices, onDismiss }: Props) {
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Messages">
      {notices.map((n) => (
        <li key={n.id} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span>{n.text}</span>
          <button type="button" onClick={() => onDismiss(n.id)} aria-label="Dismiss message">
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
