/**
 * The contract every embedding backend implements (USE lite on TF.js, Transformers.js models).
 * Runtime-neutral: it is used in the worker and in Node.
 */

export interface EmbedOptions {
  /** Checked between batches; an aborted call rejects with `EvidentError('aborted')`. */
  readonly signal?: AbortSignal;
  /** Called after each batch with the number of texts embedded so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Texts per model call; each backend documents its measured default. */
  readonly batchSize?: number;
  /**
   * What the texts are (default `passage`). Models trained with instructions embed a search query
   * differently from a passage (BGE v1.5's query instruction, e5's `query: ` / `passage: `): the
   * backend puts the manifest's `queryPrefix` or `passagePrefix` before each text. Models without
   * prefixes (USE lite) ignore it.
   */
  readonly kind?: 'query' | 'passage';
}

export interface Embedder {
  /** Stable identity of model + preprocessing, e.g. `use-lite-512@1/max128`: cache keys use it. */
  readonly id: string;
  /** Vector length. */
  readonly dim: number;
  /** Tokens the model reads per text; later tokens are ignored. */
  readonly maxTokens: number;
  /** Length of `text` in the model's own tokens (cheap: chunk sizing calls it often). */
  countTokens(text: string): number;
  /**
   * Embeds `texts` into one row-major `texts.length × dim` array of L2-normalised rows (so a dot
   * product is the cosine). A text with no tokens (the empty string) gets an all-zero row.
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array>;
  /** Frees the model's memory; the embedder must not be used afterwards. */
  dispose(): void;
}

/** Row `i` of a row-major matrix of `dim` columns, as a view (no copy). */
export function row(matrix: Float32Array, dim: number, i: number): Float32Array {
  return matrix.subarray(i * dim, (i + 1) * dim);
}
