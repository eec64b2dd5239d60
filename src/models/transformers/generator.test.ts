/**
 * The Transformers.js generator on the tiny Qwen2-shaped LM. The reference is an independent
 * greedy loop over a direct onnxruntime-node session — the ChatML prompt written out by hand,
 * the whole sequence re-run at every step (no KV cache) — so a missing chat template, a broken
 * cache or a wrong budget all change the text.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as ort from 'onnxruntime-node';
import { emptyCache, int64, ortSession, setupTiny } from '../../../test/tiny-models';
import type { ChatMessage } from '../interfaces';
import type { ModelSpec } from '../manifest';
import { loadTransformersGenerator, type TransformersGenerator } from './generator';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer from the evidence only.' },
  { role: 'user', content: 'How many days per week can I work from home?' },
];

let spec: ModelSpec;
let generator: TransformersGenerator;
let session: ort.InferenceSession;

/** Greedy decoding of `steps` tokens from the hand-written ChatML prompt, without a KV cache. */
async function referenceReply(
  messages: readonly ChatMessage[],
  steps: number,
): Promise<{ text: string; ids: number[] }> {
  const tokenizer = await AutoTokenizer.from_pretrained('tiny/causal-lm');
  const prompt =
    messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
  const ids = tokenizer.encode(prompt, { add_special_tokens: false });
  const generated: number[] = [];
  for (let s = 0; s < steps; s++) {
    const seq = [...ids, ...generated];
    const out = await session.run({
      input_ids: int64([seq]),
      attention_mask: int64([seq.map(() => 1)]),
      position_ids: int64([seq.map((_, i) => i)]),
      'past_key_values.0.key': emptyCache(),
      'past_key_values.0.value': emptyCache(),
    });
    const logits = out.logits as ort.Tensor;
    const vocab = logits.dims[2] as number;
    const last = (logits.data as Float32Array).subarray((seq.length - 1) * vocab, seq.length * vocab);
    let best = 0;
    for (let v = 1; v < vocab; v++) if ((last[v] as number) > (last[best] as number)) best = v;
    generated.push(best);
  }
  return { text: tokenizer.decode(generated, { skip_special_tokens: true }), ids: generated };
}

beforeAll(async () => {
  spec = (await setupTiny()).generator;
  session = await ortSession('causal-lm');
  ({ generator } = await loadTransformersGenerator(spec));
});

describe('Transformers.js generator on the tiny causal LM', () => {
  it('applies the chat template and decodes greedily, exactly as the reference loop', async () => {
    const reply = await generator.generate(MESSAGES, { maxTokens: 12 });
    const reference = await referenceReply(MESSAGES, 12);
    expect(reply).toBe(reference.text);
    expect(reply.length).toBeGreaterThan(0);
    // Without the template the prompt differs, and so does the continuation.
    const bare = await referenceReply([{ role: 'user', content: 'x' }], 12);
    expect(bare.text).not.toBe(reply);
  });

  it('stops exactly at the token budget', async () => {
    for (const budget of [1, 5, 20]) {
      const reply = await generator.generate(MESSAGES, { maxTokens: budget });
      expect(reply).toBe((await referenceReply(MESSAGES, budget)).text);
    }
    const five = await generator.generate(MESSAGES, { maxTokens: 5 });
    const twenty = await generator.generate(MESSAGES, { maxTokens: 20 });
    expect(twenty.startsWith(five)).toBe(true);
    expect(twenty.length).toBeGreaterThan(five.length);
  });

  it('streams pieces whose concatenation is the reply', async () => {
    const pieces: string[] = [];
    const reply = await generator.generate(MESSAGES, { maxTokens: 24, onToken: (t) => pieces.push(t) });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(reply);
  });

  it('stops soon after an abort and rejects with aborted', async () => {
    const full = await generator.generate(MESSAGES, { maxTokens: 60 });
    const controller = new AbortController();
    const pieces: string[] = [];
    const promise = generator.generate(MESSAGES, {
      maxTokens: 60,
      signal: controller.signal,
      onToken: (t) => {
        pieces.push(t);
        controller.abort();
      },
    });
    await expect(promise).rejects.toMatchObject({ code: 'aborted' });
    // The first piece triggered the abort; generation stopped after at most one more token.
    expect(pieces.join('').length).toBeLessThan(full.length);
    const already = new AbortController();
    already.abort();
    await expect(generator.generate(MESSAGES, { maxTokens: 5, signal: already.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('counts tokens with the model tokenizer and validates its inputs', async () => {
    expect(generator.countTokens('')).toBe(0);
    expect(generator.countTokens('<|im_end|>')).toBe(1);
    expect(generator.countTokens('The remote work policy')).toBeLessThan('The remote work policy'.length);
    expect(generator.contextTokens).toBe(2048);
    await expect(generator.generate(MESSAGES, { maxTokens: 0 })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(generator.generate([], { maxTokens: 3 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      generator.generate([{ role: 'tool', content: 'x' } as unknown as ChatMessage], { maxTokens: 3 }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(generator.generate(MESSAGES, { maxTokens: 5000 })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
