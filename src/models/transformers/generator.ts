/**
 * A Transformers.js causal LM behind the `Generator` interface (e.g. Qwen2.5-0.5B-Instruct, q4).
 * The prompt is the model's own chat template (`tokenizer.apply_chat_template`, with the
 * generation prompt); decoding is greedy (answers must be reproducible); text streams through a
 * `TextStreamer` (pieces at word boundaries, so a multi-byte character is never split); the
 * budget is `max_new_tokens`; an abort is a stopping criterion checked after every token.
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  StoppingCriteria,
  StoppingCriteriaList,
  TextStreamer,
} from '@huggingface/transformers';
import { EvidentError } from '../../core/errors';
import type { AbortSignalLike } from '../../core/util/abort';
import type { ChatMessage, GenerateOptions, Generator } from '../interfaces';
import type { ModelSpec } from '../manifest';
import { throwIfAborted } from '../../core/util/abort';
import { disposeQuietly, type TensorLike, type TokenizerLike } from './common';
import { loadTransformersModel, type LoadOptions, type LoadReport } from './loader';

interface ChatTokenizerLike extends TokenizerLike {
  apply_chat_template(
    messages: readonly ChatMessage[],
    options: { add_generation_prompt: boolean; return_dict: true },
  ): { input_ids: TensorLike & SliceableTensor; attention_mask: TensorLike };
}

interface SliceableTensor {
  slice(...ranges: (null | number | [number, number | null])[]): { tolist(): (number | bigint)[][] };
}

interface CausalLmLike {
  generate(options: Record<string, unknown>): Promise<SliceableTensor & TensorLike>;
  readonly config: Readonly<Record<string, unknown>>;
  dispose(): Promise<unknown>;
}

export interface TransformersGenerator extends Generator {
  /** Largest sequence (prompt + reply) the model's positions allow, or null when unknown. */
  readonly contextTokens: number | null;
  dispose(): void;
}

const ROLES = ['system', 'user', 'assistant'] as const;

/** Stops every sequence once the caller's signal is aborted (checked after each new token). */
class AbortCriteria extends StoppingCriteria {
  constructor(private readonly signal: AbortSignalLike) {
    super();
  }
  override _call(inputIds: unknown[][]): boolean[] {
    return inputIds.map(() => this.signal.aborted);
  }
}

/** Loads `AutoTokenizer` + `AutoModelForCausalLM` for `spec`; the tokenizer must have a chat template. */
export async function loadTransformersGenerator(
  spec: ModelSpec,
  options: LoadOptions = {},
): Promise<{ generator: TransformersGenerator; report: LoadReport }> {
  const { value, report } = await loadTransformersModel(spec, options, async (ctx) => {
    const common = { revision: ctx.revision, progress_callback: ctx.progress_callback };
    const tokenizer = (await AutoTokenizer.from_pretrained(ctx.modelId, common)) as unknown as ChatTokenizerLike;
    if (typeof tokenizer.chat_template !== 'string' && typeof tokenizer.chat_template !== 'object') {
      throw new EvidentError('model_load_failed', `${spec.id} has no chat template in tokenizer_config.json.`);
    }
    const model = (await AutoModelForCausalLM.from_pretrained(ctx.modelId, {
      ...common,
      device: ctx.device,
      dtype: ctx.dtype,
    })) as unknown as CausalLmLike;
    return new TransformersGeneratorImpl(spec.id, tokenizer, model);
  });
  return { generator: value, report };
}

class TransformersGeneratorImpl implements TransformersGenerator {
  readonly contextTokens: number | null;
  private disposed = false;

  constructor(
    readonly id: string,
    private readonly tokenizer: ChatTokenizerLike,
    private readonly model: CausalLmLike,
  ) {
    const positions = model.config.max_position_embeddings;
    this.contextTokens = typeof positions === 'number' ? positions : null;
  }

  countTokens(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<string> {
    if (this.disposed) throw new EvidentError('internal', 'The generator was already released.');
    const { maxTokens, signal, onToken } = options;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new EvidentError('invalid_option', `maxTokens must be a positive integer, got ${maxTokens}.`);
    }
    if (
      !Array.isArray(messages) ||
      messages.length === 0 ||
      messages.some((m) => !ROLES.includes(m?.role) || typeof m?.content !== 'string')
    ) {
      throw new EvidentError(
        'invalid_input',
        `generate: expected a non-empty array of { role (${ROLES.join(' | ')}), content } messages.`,
      );
    }
    throwIfAborted(signal, 'Generation');

    const inputs = this.tokenizer.apply_chat_template(messages, { add_generation_prompt: true, return_dict: true });
    const promptLength = inputs.input_ids.dims[1] as number;
    if (this.contextTokens !== null && promptLength + maxTokens > this.contextTokens) {
      throw new EvidentError(
        'invalid_input',
        `The prompt (${promptLength} tokens) plus the answer budget (${maxTokens}) exceeds ${this.id}'s context of ${this.contextTokens} tokens.`,
      );
    }
    const streamer = new TextStreamer(this.tokenizer as never, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: (text: string) => onToken?.(text),
    });
    const stopping = new StoppingCriteriaList();
    if (signal) stopping.push(new AbortCriteria(signal));

    const sequences = await this.model.generate({
      ...inputs,
      max_new_tokens: maxTokens,
      do_sample: false,
      streamer,
      stopping_criteria: stopping,
    });
    throwIfAborted(signal, 'Generation');
    const reply = sequences.slice(null, [promptLength, null]).tolist()[0] ?? [];
    return this.tokenizer.decode(reply, { skip_special_tokens: true });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeQuietly(this.model);
  }
}
