/**
 * SentencePiece-style unigram tokenizer for Universal Sentence Encoder lite, producing exactly the
 * ids of the reference `Tokenizer` in `@tensorflow-models/universal-sentence-encoder@1.3.3`, in
 * time linear in the text length (the reference is quadratic: it slices the symbol array at
 * every position).
 *
 * Reference behaviour reproduced here, quirks included (every one changes ids on some input):
 * - Input is NFKC-normalised; a non-empty result gets a leading "▁" (U+2581) and every U+0020
 *   becomes "▁". Other whitespace (tab, newline) is not touched and is usually unknown.
 * - Symbols are UTF-16 code units, not code points: the reference iterates `input[i]` (ES5
 *   output), so an emoji is two symbols and each surrogate half is matched on its own.
 * - The lattice has, at each position, every vocabulary piece that starts there; when none does,
 *   a single unknown edge (id 0, score 0, length 1).
 * - Viterbi relaxes edges into a position in ascending start order and keeps a candidate when
 *   `best === 0 || score >= best`: ties go to the later start (shorter last piece), and a best
 *   score of exactly 0 counts as "unset" (so a position reached only through score-0 edges is
 *   overwritten by the next candidate, whatever its score).
 * - The backward pass steps back by the UTF-16 length of the chosen piece's vocabulary string
 *   (for the unknown id, the length of entry 0's string).
 * - Consecutive unknown ids are merged into one.
 * - The first `reservedSymbolsCount` (6) entries are never matched; a key listed twice keeps the
 *   later entry.
 */

export const USE_SEPARATOR = '\u2581';
const SEPARATOR_CODE = 0x2581;
const SPACE_CODE = 0x20;
/** Entries 0..5 are unk, control and user-defined symbols (reference `RESERVED_SYMBOLS_COUNT`). */
export const USE_RESERVED_SYMBOLS = 6;
/** Id the reference emits for a symbol no piece covers. */
export const USE_UNKNOWN_ID = 0;
/** Below U+00A0 every code unit is NFKC-stable, so pure text in that range skips normalisation. */
const FIRST_NFKC_UNSTABLE = 0xa0;

/** A vocabulary as shipped in `vocab.json`: `[piece, log-probability]`, index = id. */
export type UseVocabulary = readonly (readonly [string, number])[];

export class UseTokenizer {
  /** Trie over UTF-16 code units. Node 0 is the root. */
  private readonly rootChild: Int32Array;
  /** Open-addressing hash of (node, code unit) → child node for nodes below the root. */
  private readonly edgeParent: Int32Array;
  private readonly edgeUnit: Int32Array;
  private readonly edgeChild: Int32Array;
  private readonly edgeMask: number;
  /** Per trie node: the vocabulary id ending there (-1 when none) and its score. */
  private readonly nodePiece: Int32Array;
  private readonly nodeScore: Float64Array;
  /** Per id: how far the backward pass steps (UTF-16 length of the piece string, at least 1). */
  private readonly backStep: Int32Array;
  /** Longest piece in code units: bounds the trie walk from any position. */
  readonly maxPieceLength: number;
  readonly vocabularySize: number;

  // Scratch buffers reused across calls (the chunker calls `count` very often); grown on demand.
  private symbols = new Uint16Array(1024);
  private best = new Float64Array(1025);
  private words = new Int32Array(1025);

  private constructor(vocab: UseVocabulary, reserved: number) {
    this.vocabularySize = vocab.length;
    const backStep = new Int32Array(vocab.length);
    for (let id = 0; id < vocab.length; id++) {
      // A zero-length step would loop forever in the reference; 1 is the only sane reading.
      backStep[id] = Math.max(1, (vocab[id] as readonly [string, number])[0].length);
    }
    this.backStep = backStep;

    // Build a pointer trie first (simple), then flatten it into typed arrays (fast to walk).
    const children: Map<number, number>[] = [new Map()];
    const piece: number[] = [-1];
    const score: number[] = [0];
    let maxLen = 0;
    for (let id = reserved; id < vocab.length; id++) {
      const [key, s] = vocab[id] as readonly [string, number];
      if (key.length === 0) continue;
      let node = 0;
      for (let i = 0; i < key.length; i++) {
        const unit = key.charCodeAt(i);
        const map = children[node] as Map<number, number>;
        let next = map.get(unit);
        if (next === undefined) {
          next = children.length;
          map.set(unit, next);
          children.push(new Map());
          piece.push(-1);
          score.push(0);
        }
        node = next;
      }
      piece[node] = id;
      score[node] = s;
      maxLen = Math.max(maxLen, key.length);
    }
    this.maxPieceLength = maxLen;
    this.nodePiece = Int32Array.from(piece);
    this.nodeScore = Float64Array.from(score);

    this.rootChild = new Int32Array(0x10000).fill(-1);
    for (const [unit, child] of children[0] as Map<number, number>) this.rootChild[unit] = child;

    let edges = 0;
    for (let n = 1; n < children.length; n++) edges += (children[n] as Map<number, number>).size;
    let cap = 16;
    while (cap < edges * 2) cap *= 2; // load factor ≤ 0.5 keeps probes short
    this.edgeMask = cap - 1;
    this.edgeParent = new Int32Array(cap).fill(-1);
    this.edgeUnit = new Int32Array(cap);
    this.edgeChild = new Int32Array(cap);
    for (let n = 1; n < children.length; n++) {
      for (const [unit, child] of children[n] as Map<number, number>) {
        let slot = hashEdge(n, unit) & this.edgeMask;
        while (this.edgeParent[slot] !== -1) slot = (slot + 1) & this.edgeMask;
        this.edgeParent[slot] = n;
        this.edgeUnit[slot] = unit;
        this.edgeChild[slot] = child;
      }
    }
  }

  /**
   * @param vocab `vocab.json` of the model (8k pieces for USE lite).
   * @param reservedSymbolsCount leading entries never matched (6 for USE lite, as the reference).
   */
  static fromVocabulary(vocab: UseVocabulary, reservedSymbolsCount = USE_RESERVED_SYMBOLS): UseTokenizer {
    if (vocab.length <= reservedSymbolsCount) {
      throw new RangeError(`UseTokenizer: vocabulary has ${vocab.length} entries, not more than the reserved ones`);
    }
    return new UseTokenizer(vocab, reservedSymbolsCount);
  }

  /**
   * Token ids of `text`, identical to the reference `Tokenizer.encode`. With `maxTokens`, only the
   * first `maxTokens` ids (the segmentation is still computed over the whole text, as the
   * reference does before the model clips).
   */
  encode(text: string, maxTokens = Infinity): number[] {
    const n = this.lattice(text);
    // Backward pass writes ids from the end; collect them reversed, merging unknown runs.
    const reversed: number[] = [];
    const { words, backStep } = this;
    let previousUnknown = false;
    for (let at = n; at > 0;) {
      const id = words[at] as number;
      if (!(previousUnknown && id === USE_UNKNOWN_ID)) reversed.push(id);
      previousUnknown = id === USE_UNKNOWN_ID;
      at -= backStep[id] as number;
    }
    const total = reversed.length;
    const keep = Math.min(total, maxTokens);
    const out = new Array<number>(keep);
    for (let i = 0; i < keep; i++) out[i] = reversed[total - 1 - i] as number;
    return out;
  }

  /** Number of ids `encode(text)` returns, without building the array. */
  count(text: string): number {
    const n = this.lattice(text);
    const { words, backStep } = this;
    let count = 0;
    let previousUnknown = false;
    for (let at = n; at > 0;) {
      const id = words[at] as number;
      if (!(previousUnknown && id === USE_UNKNOWN_ID)) count++;
      previousUnknown = id === USE_UNKNOWN_ID;
      at -= backStep[id] as number;
    }
    return count;
  }

  /** Fills `symbols`, `best` and `words` for `text`; returns the symbol count. */
  private lattice(text: string): number {
    const n = this.loadSymbols(text);
    const { symbols, best, words, rootChild, nodePiece, nodeScore } = this;
    best.fill(0, 0, n + 1);
    words.fill(0, 0, n + 1);
    for (let start = 0; start < n; start++) {
      const base = best[start] as number;
      let matched = false;
      let node = rootChild[symbols[start] as number] as number;
      let end = start + 1;
      // Trie depth bounds this walk by maxPieceLength: O(n · maxPieceLength) overall.
      while (node >= 0) {
        const id = nodePiece[node] as number;
        if (id >= 0) {
          matched = true;
          const s = (nodeScore[node] as number) + base;
          const b = best[end] as number;
          if (b === 0 || s >= b) {
            best[end] = s;
            words[end] = id;
          }
        }
        if (end >= n) break;
        node = this.child(node, symbols[end] as number);
        end++;
      }
      if (!matched) {
        // Unknown edge: score 0 + best[start], length 1.
        const b = best[start + 1] as number;
        if (b === 0 || base >= b) {
          best[start + 1] = base;
          words[start + 1] = USE_UNKNOWN_ID;
        }
      }
    }
    return n;
  }

  private child(node: number, unit: number): number {
    const { edgeParent, edgeUnit, edgeChild, edgeMask } = this;
    let slot = hashEdge(node, unit) & edgeMask;
    for (;;) {
      const p = edgeParent[slot] as number;
      if (p === -1) return -1;
      if (p === node && edgeUnit[slot] === unit) return edgeChild[slot] as number;
      slot = (slot + 1) & edgeMask;
    }
  }

  /** Writes "▁" + NFKC(text) with spaces as "▁" into `symbols`; returns its length (0 for ""). */
  private loadSymbols(text: string): number {
    if (text.length === 0) return 0;
    let source = text;
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) >= FIRST_NFKC_UNSTABLE) {
        source = text.normalize('NFKC');
        break;
      }
    }
    if (source.length === 0) return 0;
    const n = source.length + 1;
    if (this.symbols.length < n) {
      const size = Math.max(n, this.symbols.length * 2);
      this.symbols = new Uint16Array(size);
      this.best = new Float64Array(size + 1);
      this.words = new Int32Array(size + 1);
    }
    const symbols = this.symbols;
    symbols[0] = SEPARATOR_CODE;
    for (let i = 0; i < source.length; i++) {
      const unit = source.charCodeAt(i);
      symbols[i + 1] = unit === SPACE_CODE ? SEPARATOR_CODE : unit;
    }
    return n;
  }
}

function hashEdge(node: number, unit: number): number {
  return (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) >>> 0;
}
