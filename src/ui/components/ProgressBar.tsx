import { formatBytes, formatCount, percent } from '../format';

interface Props {
  readonly label: string;
  readonly done: number;
  readonly total: number;
  /** Show byte units (model download) instead of plain counts (chunks). */
  readonly bytes?: boolean;
}

/** A native <progress> with a visible text equivalent ("12.0 MB of 28.0 MB (42%)", "276 of 3,804 (7%)"). */
export function ProgressBar({ label, done, total, bytes = false }: Props) {
  const pct = percent(done, total);
  const fmt = bytes ? formatBytes : formatCount;
  const text = total > 0 ? `${fmt(done)} of ${fmt(total)} (${pct}%)` : 'Starting…';
  return (
    <div className="progress">
      <progress aria-label={label} value={total > 0 ? done : undefined} max={total > 0 ? total : undefined} />
      <span className="progress-text" aria-hidden="true">
        {text}
      </span>
    </div>
  );
}
