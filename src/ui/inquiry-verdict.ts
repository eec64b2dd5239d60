/**
 * What premise-directed inquiry's release decision means for the answer shown. The inquiry's
 * answer replaces the first one only when the first was not supported (`worker/inquiry-answer.ts`):
 * under a supported first answer its verdict is about its own chain of records, never about the
 * answer above, and the trail says so instead of a bare "Not released" under "Supported".
 */
import type { AskResult } from '../worker/ask-api';

export interface InquiryVerdict {
  /** The verdict's label: "Answered by this inquiry", "Not needed", "Released" or "Not released". */
  readonly label: string;
  /** What the verdict means for the answer above, when that needs saying; '' otherwise. */
  readonly lead: string;
  /** The inquiry's own reason, without its "Released:"/"Not released:" opening. */
  readonly reason: string;
  readonly released: boolean;
  /** The answer shown is the inquiry's. */
  readonly used: boolean;
}

/** The verdict line of the inquiry trail for `result`, or null when no inquiry ran. */
export function inquiryVerdict(result: Pick<AskResult, 'outcome' | 'answer' | 'inquiry'>): InquiryVerdict | null {
  const inquiry = result.inquiry;
  if (!inquiry?.triggered) return null;
  const { released } = inquiry.release;
  const reason = inquiry.release.reason.replace(/^(?:Not released|Released):\s*/u, '');
  const used = result.answer.answerer === 'inquiry';
  if (used) return { label: 'Answered by this inquiry', lead: '', reason, released, used };
  if (result.outcome === 'supported') {
    return {
      label: 'Not needed',
      lead: 'the answer above stands on the first evidence. The inquiry: ',
      reason,
      released,
      used,
    };
  }
  return { label: released ? 'Released' : 'Not released', lead: '', reason, released, used };
}
