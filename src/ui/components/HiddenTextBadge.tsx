import type { TraceEntry } from '../../core/types';
import { hasHiddenText } from '../hidden-marks';

/** "hidden text" on a passage holding text its document hides from readers (removed before any answer). */
export function HiddenTextBadge({ trace }: { readonly trace: readonly TraceEntry[] }) {
  if (!hasHiddenText(trace)) return null;
  return (
    <>
      {' · '}
      <span
        className="badge badge-dropped"
        data-testid="hidden-text-mark"
        title="This passage holds text its document hides from readers (white-on-white, zero-size, off-page or hidden). It was removed: it is never evidence or part of an answer."
      >
        hidden text
      </span>
    </>
  );
}
