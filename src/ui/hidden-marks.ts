/**
 * Which trail rows hold text their document hides from readers: the verifier's injection check
 * names `hidden_text` among the kinds it flagged (src/core/verify/injection.ts).
 */
import type { TraceEntry } from '../core/types';

/** True when the verifier found text the document hides from its readers in this passage (`Chunk.hidden`). */
export function hasHiddenText(trace: readonly TraceEntry[]): boolean {
  return trace.some(
    (e) =>
      e.stage === 'verify' &&
      e.detail?.check === 'injection' &&
      typeof e.detail.kinds === 'string' &&
      e.detail.kinds.split(',').includes('hidden_text'),
  );
}
