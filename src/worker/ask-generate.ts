/**
 * The generative answer step of `ask` (Enhanced profile, or the tiny test profile): how much
 * evidence fits the generator's window, counted with its own tokenizer, and the call itself with
 * streamed text. The prompt and the parsing are `core/answer/generative.ts`; validation of the
 * citations and claims stays in `ask.ts` (`validateAnswer`), for either answerer.
 *
 *   window   = min(the model's positions, GENERATOR_WINDOW)
 *   evidence = min(the user's budget, window − prompt without sources − answer tokens − 5 % margin)
 *
 * The prompt without sources (system rules, question, chat template) is counted exactly. Each
 * packed source is counted as the prompt shows it: the pack stage counts its header line and
 * passage, and the `<source id=… document=… section=… effective=… status=… flagged=…>…</source>`
 * wrapper adds its syntax, so every item pays the tag's worst case (all attributes) on top.
 */
import { answerGenerative, buildPrompt, sourceBlock, type Generator } from '../core/answer/generative';
import type { Answer } from '../core/answer/extractive';
import { EvidentError } from '../core/errors';
import type { EvidencePacket } from '../core/select/packet';
import type { PackedSource, TokenCounter } from '../core/select/pack';

/** A generator and its context window (the Transformers.js backend knows it from the model config). */
export interface AskGenerator extends Generator {
  /** Positions the model has (prompt + answer), or null when unknown. */
  readonly contextTokens?: number | null;
}

/**
 * Longest prompt + answer we give a small in-browser model: the pack stage's default window,
 * which the default evidence budget (3,000 tokens) was derived from. Longer prompts cost time
 * quadratically on WASM for no gain at a 3-sentence answer.
 */
export const GENERATOR_WINDOW = 4096;
/** Tokens the answer may use: three cited sentences take ~150; 256 leaves room, and bounds the wait. */
export const ANSWER_TOKENS = 256;
/** Safety margin for tokenizer and template slack, as in the pack stage (5 %). */
export const MARGIN_RATIO = 0.05;
/** Chat-template tokens per message (ChatML: `<|im_start|>role\n … <|im_end|>\n` ≈ 5), rounded up. */
export const TEMPLATE_TOKENS_PER_MESSAGE = 8;
/** A packed item's text starts with its header line, `[S3] Title › Section` (pack.ts). */
const PACKED_ITEM = /^\[S\d+\] /u;

export interface GenerationPlan {
  readonly generatorId: string;
  readonly window: number;
  readonly answerTokens: number;
  /** Evidence budget in the generator's tokens (what the pack stage may fill). */
  readonly evidenceTokens: number;
  /** Tokens of the prompt without sources (system rules, question, template). */
  readonly promptTokens: number;
  /** Tokens each source's `<source …>` tag adds, at most. */
  readonly tagTokens: number;
  /** The generator's tokenizer, plus `tagTokens` for a packed item (what pack counts with). */
  readonly tokenCounter: TokenCounter;
}

const SKELETON: PackedSource = {
  citationId: 'S99',
  candidateId: '',
  docId: '',
  chunkId: '',
  title: '',
  headings: [''],
  start: 0,
  end: 0,
  text: '',
  tokens: 0,
  score: 0,
  sourceType: 'unknown',
  status: 'superseded',
  effectiveDate: '2000-01-01',
  rationaleIds: [],
  group: null,
};

/**
 * The evidence budget for one question. Returns null when the window cannot hold the rules, the
 * question and an answer (then the extractive answerer stands in, and the trail says why).
 */
export function planGeneration(
  generator: AskGenerator,
  question: string,
  userBudget: number,
): GenerationPlan | { readonly skip: string } {
  const count: TokenCounter = (t) => generator.countTokens(t);
  const window = Math.min(generator.contextTokens ?? GENERATOR_WINDOW, GENERATOR_WINDOW);
  const answerTokens = Math.min(ANSWER_TOKENS, Math.floor(window / 4));
  const messages = buildPrompt({ question, sources: [] });
  const promptTokens =
    messages.reduce((a, m) => a + count(m.content), 0) + TEMPLATE_TOKENS_PER_MESSAGE * (messages.length + 1);
  const tagTokens = count(sourceBlock(SKELETON, true)) + count('\n');
  const room = window - promptTokens - answerTokens - Math.ceil(MARGIN_RATIO * window);
  if (room < 2 * tagTokens) {
    return {
      skip: `${generator.id}'s window (${window} tokens) cannot hold the instructions and the question (${promptTokens} tokens), an answer (${answerTokens}) and any evidence.`,
    };
  }
  return {
    generatorId: generator.id,
    window,
    answerTokens,
    evidenceTokens: Math.max(0, Math.min(userBudget, room)),
    promptTokens,
    tagTokens,
    tokenCounter: (t) => count(t) + (PACKED_ITEM.test(t) ? tagTokens : 0),
  };
}

/** Streams the generator's reply into `onText` (the whole text so far) and parses it into an `Answer`. */
export async function generateAnswer(
  generator: AskGenerator,
  packet: EvidencePacket,
  plan: GenerationPlan,
  cb: { readonly signal?: AbortSignal; readonly onText?: (text: string) => void },
): Promise<Answer> {
  let text = '';
  return answerGenerative(
    generator,
    {
      question: packet.question,
      sources: packet.sources,
      conflicts: packet.conflicts,
      flags: packet.flags,
      ...(cb.signal ? { signal: cb.signal } : {}),
      onToken: (piece) => {
        text += piece;
        cb.onText?.(text);
      },
    },
    { maxTokens: plan.answerTokens },
  );
}

/** True for a cancelled call (never a reason to fall back: the caller stops). */
export function isAborted(err: unknown): boolean {
  return err instanceof EvidentError && err.code === 'aborted';
}

/** Why a failed generation falls back to the extractive answer. */
export function fallbackReason(err: unknown, generatorId: string): string {
  const message = err instanceof Error ? err.message : String(err);
  return `${generatorId} failed (${message}); the answer quotes the evidence instead.`;
}
