/**
 * The four model roles behind small interfaces. `Embedder` and `CrossEncoder` are defined where
 * they are consumed (`./embedder`, `core/select/rerank`); `EntailmentModel` and `Generator` are
 * defined here until the verification and answer stages (`core/verify/nli.ts`,
 * `core/answer/generative.ts`) own them — the shapes are the agreed ones, so moving them is a
 * re-export. Signals are `AbortSignalLike` so `src/core` (no DOM types) can declare them too; a
 * real `AbortSignal` satisfies it.
 */
import type { AbortSignalLike } from '../core/select/common';

export type { Embedder, EmbedOptions } from './embedder';
export type { CrossEncoder } from '../core/select/rerank';
export type { AbortSignalLike };

export interface EntailmentPair {
  readonly premise: string;
  readonly hypothesis: string;
}

/** Probabilities over the three NLI labels; they sum to 1. */
export interface EntailmentScores {
  readonly entailment: number;
  readonly neutral: number;
  readonly contradiction: number;
}

/** An NLI model: does the premise entail, contradict or say nothing about the hypothesis? */
export interface EntailmentModel {
  readonly id: string;
  /** One result per pair, in order. An aborted call rejects with `EvidentError('aborted')`. */
  classify(pairs: readonly EntailmentPair[], signal?: AbortSignalLike): Promise<EntailmentScores[]>;
}

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface GenerateOptions {
  /** Budget of new tokens; generation stops there even mid-sentence. */
  readonly maxTokens: number;
  /** Aborting stops generation after the current token; the call rejects with `EvidentError('aborted')`. */
  readonly signal?: AbortSignalLike;
  /** Streamed text pieces, in order; their concatenation is the resolved string. */
  readonly onToken?: (text: string) => void;
}

/** A chat model that writes answers (and rationales) under a token budget. */
export interface Generator {
  readonly id: string;
  /** Length of `text` in the model's own tokens (no special tokens), for prompt budgeting. */
  countTokens(text: string): number;
  /** Applies the model's chat template and generates the assistant's reply. */
  generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<string>;
}
