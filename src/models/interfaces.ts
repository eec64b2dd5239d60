/**
 * The four model roles, as the stages that consume them define them — one import for the
 * backends in `src/models/transformers/`: `Embedder` (`./embedder`), `CrossEncoder`
 * (`core/select/rerank`), `EntailmentModel` (`core/verify/nli`) and `Generator`
 * (`core/answer/generative`). Signals are `AbortSignalLike` so `src/core` (no DOM types) can
 * declare them; a real `AbortSignal` satisfies it.
 */
export type { AbortSignalLike } from '../core/util/stage';
export type { CrossEncoder } from '../core/select/rerank';
export type { EntailmentModel, EntailmentPair, EntailmentScores } from '../core/verify/nli';
export type { ChatMessage, GenerateOptions, Generator } from '../core/answer/generative';
export type { Embedder, EmbedOptions } from './embedder';
