/**
 * The Ask page's state: one question at a time (a newer question cancels the one in flight), the
 * answer as a generator writes it (streamed), the result with the whole evidence trail, and the user's helpful / misleading marks on cited
 * passages (each sent to the worker, which moves the document's λ and stores it).
 */
import type { EvidentErrorValue } from '../core/errors';
import type { AskProgress, AskResult, AskSource, FeedbackResult } from '../worker/ask-api';
import { Store, toErrorValue } from './store';
import { isAbort, type WorkerClient } from './worker-client';

export type AskPhase =
  | { readonly phase: 'idle' }
  | {
      readonly phase: 'asking';
      readonly question: string;
      readonly step: AskProgress['phase'];
      /** The generator writing the answer, and its text so far (streamed); absent for the extractive answerer. */
      readonly answerer?: string;
      readonly partial?: string;
    }
  | { readonly phase: 'done'; readonly result: AskResult; readonly ms: number }
  | { readonly phase: 'error'; readonly question: string; readonly error: EvidentErrorValue };

export type Verdict = 'helpful' | 'misleading';

/** A mark on one cited passage (by chunk id), and what it did to its document's λ. */
export interface FeedbackMark {
  readonly verdict: Verdict;
  readonly status: 'sending' | 'saved' | 'error';
  readonly result?: FeedbackResult;
  readonly error?: EvidentErrorValue;
}

export interface AskState {
  readonly ask: AskPhase;
  readonly feedback: Readonly<Record<string, FeedbackMark>>;
}

type Client = Pick<WorkerClient, 'ask' | 'feedback'>;

export class AskStore extends Store<AskState> {
  private run: AbortController | null = null;

  constructor(private readonly client: Client) {
    super({ ask: { phase: 'idle' }, feedback: {} });
  }

  /** Asks `question`; cancels a question in flight. An empty question clears the page. */
  async ask(question: string): Promise<void> {
    this.run?.abort();
    const q = question.trim();
    if (q === '') {
      this.run = null;
      this.set({ ask: { phase: 'idle' } });
      return;
    }
    const run = new AbortController();
    this.run = run;
    this.set({ ask: { phase: 'asking', question: q, step: 'retrieve' }, feedback: {} });
    const t0 = performance.now();
    // The client delivers no progress once the call settled (it may arrive after the result).
    try {
      const result = await this.client.ask(q, {
        signal: run.signal,
        onProgress: (p) => {
          if (run.signal.aborted || p.phase === 'done') return;
          // Streamed text only grows: an event that arrives late never shortens what is shown.
          const before = this.getState().ask;
          const shown = before.phase === 'asking' ? before.partial : undefined;
          const partial = p.partial !== undefined && p.partial.length >= (shown?.length ?? 0) ? p.partial : shown;
          this.set({
            ask: {
              phase: 'asking',
              question: q,
              step: p.phase,
              ...(p.answerer
                ? { answerer: p.answerer }
                : before.phase === 'asking' && before.answerer
                  ? { answerer: before.answerer }
                  : {}),
              ...(partial !== undefined ? { partial } : {}),
            },
          });
        },
      });
      if (!run.signal.aborted) this.set({ ask: { phase: 'done', result, ms: performance.now() - t0 } });
    } catch (err) {
      if (!run.signal.aborted && !isAbort(err))
        this.set({ ask: { phase: 'error', question: q, error: toErrorValue(err) } });
    }
  }

  cancel(): void {
    this.run?.abort();
    this.run = null;
    const a = this.getState().ask;
    if (a.phase === 'asking') this.set({ ask: { phase: 'idle' } });
  }

  /** Marks a cited passage helpful or misleading; a second click on the same verdict does nothing. */
  async mark(source: Pick<AskSource, 'chunkId' | 'docId'>, verdict: Verdict): Promise<void> {
    const current = this.getState().feedback[source.chunkId];
    if (current && current.verdict === verdict && current.status !== 'error') return;
    const a = this.getState().ask;
    const question = a.phase === 'done' ? a.result.question : undefined;
    this.setMark(source.chunkId, { verdict, status: 'sending' });
    try {
      const result = await this.client.feedback({
        docId: source.docId,
        chunkId: source.chunkId,
        verdict,
        ...(question ? { question } : {}),
      });
      this.setMark(source.chunkId, { verdict, status: 'saved', result });
    } catch (err) {
      this.setMark(source.chunkId, { verdict, status: 'error', error: toErrorValue(err) });
    }
  }

  private setMark(chunkId: string, mark: FeedbackMark): void {
    this.set({ feedback: { ...this.getState().feedback, [chunkId]: mark } });
  }
}
