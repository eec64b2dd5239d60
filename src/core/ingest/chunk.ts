/**
 * Structure-aware chunking: a document becomes retrievable chunks that follow its sections and
 * sentences and fit the embedder's token budget.
 *
 * 1. Sections come from headings (`parseSections`); a chunk never spans two sections and carries
 *    its section's heading trail. The heading line itself is the first unit of its section, so
 *    chunks cover every non-whitespace character of the source.
 * 2. Each block becomes atomic units: sentences for paragraphs (`splitSentences`), lines for
 *    code and table rows, the whole heading for a heading.
 * 3. Units are packed greedily, in order, while the estimated size stays within `targetTokens`.
 *    The estimate adds the units' own counts (each counted once, so the total work is linear in
 *    the text); subword tokenizers are not additive across concatenation, so every chunk is then
 *    counted as a whole and cut back at a unit boundary when it exceeds `maxTokens`.
 * 4. A unit that alone exceeds `maxTokens` is split at whitespace into words packed the same way,
 *    and a word that alone exceeds it (a 4 MB line without spaces) is cut by characters, each
 *    cut found by galloping from the previous cut length and then bisecting, so only slices about
 *    one chunk long are ever counted. Cuts never separate a surrogate pair.
 *
 * 5. A table is packed on its own (table-pack.ts): its chunks hold whole rows, led by the section
 *    heading and the table's title lines when nothing else of the section comes before them and
 *    they fit one chunk beside the table's first row (else they are packed with the prose), and
 *    every chunk that does not hold the table's title or column header itself gets them as its
 *    `context` (table.ts finds both). `countTokens(contextualText(chunk))` — context, newline,
 *    text: what the embedder reads besides the heading trail — stays within `maxTokens`.
 *
 * A chunk's text is the exact source slice [start, end), which starts and ends with
 * non-whitespace; the context is not part of it. Ids are `${docId}#${ordinal}`: deterministic, unique within the document and
 * readable in a trace; content identity is the separate `hash`.
 */

import type { Chunk } from '../types';
import { assertKnownOptions, EvidentError } from '../errors';
import { isSpace, splitSentences, type Span } from '../text/sentences';
import { fnv1a64 } from '../util/hash';
import { parseSections, type Block, type DocumentFormat, type Section } from './markdown';
import { tableLayout, type TableLayout } from './table';
import { packTable, type TablePackContext } from './table-pack';

export interface ChunkOptions {
  /**
   * Units are packed while the chunk's estimated size stays within this many tokens. Default 120:
   * passages of about 100 words, the retrieval unit of DPR (Karpukhin et al., 2020), leaving
   * room under `maxTokens` for the estimate's error. When left at its default it is lowered to
   * `maxTokens` if that is smaller; given explicitly above `maxTokens`, it throws.
   */
  readonly targetTokens: number;
  /** Hard limit on `countTokens(chunk.text)`, never exceeded. Default 128. */
  readonly maxTokens: number;
  /** The embedder's tokenizer: number of tokens in a string. Required. */
  readonly countTokens: (text: string) => number;
  /**
   * Units (sentences) of the previous chunk repeated at the start of the next one in the same
   * section. Default 0: chunks do not overlap, and context comes from neighbours via prev/next.
   */
  readonly overlapSentences: number;
  /**
   * Share of `maxTokens` a table chunk's context (title and column header) may take before rows
   * are packed beside it; a longer context is truncated. Default 0.5: at least half of every table
   * chunk is its own rows.
   */
  readonly contextShare: number;
}

export const DEFAULT_CHUNK_OPTIONS: Readonly<Omit<ChunkOptions, 'countTokens'>> = Object.freeze({
  targetTokens: 120,
  maxTokens: 128,
  overlapSentences: 0,
  contextShare: 0.5,
});

export interface ChunkInput {
  readonly docId: string;
  readonly text: string;
  readonly format: DocumentFormat;
}

/** A range of the source with its token count (each piece alone is within `maxTokens`). */
interface Piece {
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
}

interface Context {
  readonly text: string;
  readonly target: number;
  readonly max: number;
  /** Tokens the tokenizer adds to every string (count of ""), subtracted when summing parts. */
  readonly base: number;
  readonly count: (start: number, end: number) => number;
  readonly countString: (s: string) => number;
  readonly contextShare: number;
}

/** A piece of a section's run of units; headings are told apart (they may lead a table). */
interface RunPiece extends Piece {
  readonly heading: boolean;
}

type Emit = (piece: Piece, context?: string) => void;

/** What the embedder reads of a chunk besides its heading trail: its context, a newline, its text. */
export function contextualText(chunk: Pick<Chunk, 'text' | 'context'>): string {
  return chunk.context === undefined || chunk.context === '' ? chunk.text : `${chunk.context}\n${chunk.text}`;
}

/**
 * A chunk's content hash: FNV-1a 64 of `contextualText` — the text alone when it has no context.
 * The context is part of it because the embedder reads it: the same rows under another table's
 * header are other content (dedup must not merge them, a stored vector is not theirs).
 */
export function chunkHash(chunk: Pick<Chunk, 'text' | 'context'>): string {
  return fnv1a64(contextualText(chunk));
}

/** Chunks of the document, in source order, linked by prevId / nextId. Whitespace-only text has none. */
export function chunkDocument(
  input: ChunkInput,
  options: Partial<ChunkOptions> & Pick<ChunkOptions, 'countTokens'>,
): Chunk[] {
  assertKnownOptions(options, { ...DEFAULT_CHUNK_OPTIONS, countTokens: null }, 'chunkDocument');
  const merged: ChunkOptions = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  validate(input, merged, options.targetTokens !== undefined);
  // A caller that lowers only maxTokens (a model with a shorter window) gets the target lowered too.
  const opts: ChunkOptions = { ...merged, targetTokens: Math.min(merged.targetTokens, merged.maxTokens) };

  const { text, docId } = input;
  const countTokens = opts.countTokens;
  const count = (start: number, end: number): number => checkedCount(countTokens, text.slice(start, end));
  const ctx: Context = {
    text,
    target: opts.targetTokens,
    max: opts.maxTokens,
    base: Math.max(0, checkedCount(countTokens, '')),
    count,
    countString: (s) => checkedCount(countTokens, s),
    contextShare: opts.contextShare,
  };

  const raw: { piece: Piece; headings: readonly string[]; context: string | undefined }[] = [];
  for (const section of parseSections(text, input.format)) {
    chunkSection(section, ctx, opts.overlapSentences, (piece, context) => {
      raw.push({ piece, headings: section.headings, context: context === '' ? undefined : context });
    });
  }

  const id = (ordinal: number): string => `${docId}#${ordinal}`;
  return raw.map(({ piece, headings, context }, ordinal) => {
    const chunkText = text.slice(piece.start, piece.end);
    return {
      id: id(ordinal),
      docId,
      ordinal,
      text: chunkText,
      headings,
      ...(context !== undefined ? { context } : {}),
      start: piece.start,
      end: piece.end,
      prevId: ordinal > 0 ? id(ordinal - 1) : null,
      nextId: ordinal + 1 < raw.length ? id(ordinal + 1) : null,
      hash: chunkHash({ text: chunkText, context }),
      tokens: piece.tokens,
    };
  });
}

/** Chunks of one section: its units packed in order, each table packed on its own with its context. */
function chunkSection(section: Section, ctx: Context, overlap: number, emit: Emit): void {
  const { text } = ctx;
  let run: RunPiece[] = [];
  section.blocks.forEach((block, index) => {
    const units = blockUnits(text, block);
    if (block.kind === 'table' && units.length > 0) {
      const layout = tableLayout(text, section.blocks, index, units);
      const h = layout.headerRows;
      const headerSpan = h > 0 ? { start: (units[0] as Span).start, end: (units[h - 1] as Span).end } : null;
      const lead = tableLead(leadOf(run, layout), tablePieces(units, layout, ctx), headerSpan, layout, ctx);
      pack(run.slice(0, run.length - lead.taken), overlap, ctx, emit);
      run = [];
      chunkTable(lead.pieces, layout, headerSpan, ctx, emit);
      return;
    }
    for (const unit of units) {
      const tokens = ctx.count(unit.start, unit.end);
      if (tokens <= ctx.max) {
        run.push({ start: unit.start, end: unit.end, tokens, heading: block.kind === 'heading' });
        continue;
      }
      // An oversized unit is chunked on its own: its pieces never merge with neighbours.
      pack(run, overlap, ctx, emit);
      run = [];
      pack(splitOversized(unit, tokens, ctx), 0, ctx, emit);
    }
  });
  pack(run, overlap, ctx, emit);
}

/**
 * The tail of the run that may lead a table's first chunk: its title lines, and the section heading
 * when nothing else of the section comes before (so a heading and a title are not a chunk alone).
 */
function leadOf(run: readonly RunPiece[], layout: TableLayout): RunPiece[] {
  let k = run.length;
  const title = layout.titleSpan;
  if (title !== null) while (k > 0 && (run[k - 1] as RunPiece).start >= title.start) k--;
  while (k > 0 && (run[k - 1] as RunPiece).heading) k--;
  return run.slice(k);
}

/** A piece of a table: the header rows together, or one row; an oversized row is split on its own. */
interface TableRunPiece extends Piece {
  readonly oversized: boolean;
}

/** The table's pieces in order: its header rows as one piece when they fit together, then each row. */
function tablePieces(rows: readonly Span[], layout: TableLayout, ctx: Context): TableRunPiece[] {
  const h = layout.headerRows;
  const out: TableRunPiece[] = [];
  let i = 0;
  if (h > 1) {
    const start = (rows[0] as Span).start;
    const end = (rows[h - 1] as Span).end;
    const tokens = ctx.count(start, end);
    if (tokens <= ctx.max) {
      out.push({ start, end, tokens, oversized: false });
      i = h;
    }
  }
  for (; i < rows.length; i++) {
    const row = rows[i] as Span;
    const tokens = ctx.count(row.start, row.end);
    out.push({ start: row.start, end: row.end, tokens, oversized: tokens > ctx.max });
  }
  return out;
}

/**
 * The table's pieces with the lead joined to its first piece, when the two fit one chunk within
 * `target` (with the column header as context where that piece is not the header); `taken` lead
 * pieces leave the run. A lead that cannot sit beside the table's first row stays in the run and is
 * packed with the prose before it: a title alone in a chunk of its own would help nobody.
 */
function tableLead(
  lead: readonly RunPiece[],
  pieces: readonly TableRunPiece[],
  headerSpan: Span | null,
  layout: TableLayout,
  ctx: Context,
): { taken: number; pieces: readonly TableRunPiece[] } {
  const first = pieces[0];
  const none = { taken: 0, pieces };
  if (lead.length === 0 || first === undefined || first.oversized) return none;
  const start = (lead[0] as RunPiece).start;
  const tokens = ctx.count(start, first.end);
  // The first piece starts the table, so it holds the whole header when it reaches the header's end.
  const contextTokens =
    headerSpan === null || first.end >= headerSpan.end
      ? 0
      : Math.max(0, Math.min(ctx.countString(layout.header), Math.floor(ctx.max * ctx.contextShare)) - ctx.base);
  if (tokens > ctx.max || tokens + contextTokens > ctx.target) return none;
  return { taken: lead.length, pieces: [{ start, end: first.end, tokens, oversized: false }, ...pieces.slice(1)] };
}

/** A table's chunks: whole rows with their context; a row over `maxTokens` is split on its own, without one. */
function chunkTable(
  pieces: readonly TableRunPiece[],
  layout: TableLayout,
  headerSpan: Span | null,
  ctx: Context,
  emit: Emit,
): void {
  const tableCtx: TablePackContext = {
    text: ctx.text,
    target: ctx.target,
    max: ctx.max,
    base: ctx.base,
    contextTokens: Math.floor(ctx.max * ctx.contextShare),
    countString: ctx.countString,
  };
  const batch: Piece[] = [];
  const flush = (): void => {
    if (batch.length > 0) packTable(batch, layout, headerSpan, tableCtx, emit);
    batch.length = 0;
  };
  for (const piece of pieces) {
    if (!piece.oversized) {
      batch.push(piece);
      continue;
    }
    flush();
    pack(splitOversized(piece, piece.tokens, ctx), 0, ctx, emit);
  }
  flush();
}

function validate(input: ChunkInput, opts: ChunkOptions, targetGiven: boolean): void {
  const positiveInteger = (name: keyof ChunkOptions, v: unknown): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new EvidentError('invalid_option', `chunkDocument: ${name} must be a positive integer, got ${String(v)}.`);
    }
  };
  positiveInteger('targetTokens', opts.targetTokens);
  positiveInteger('maxTokens', opts.maxTokens);
  if (targetGiven && opts.targetTokens > opts.maxTokens) {
    throw new EvidentError(
      'invalid_option',
      `chunkDocument: targetTokens (${opts.targetTokens}) must not exceed maxTokens (${opts.maxTokens}).`,
    );
  }
  const overlap = opts.overlapSentences;
  if (typeof overlap !== 'number' || !Number.isInteger(overlap) || overlap < 0) {
    throw new EvidentError(
      'invalid_option',
      `chunkDocument: overlapSentences must be a non-negative integer, got ${String(overlap)}.`,
    );
  }
  const share = opts.contextShare;
  if (typeof share !== 'number' || !(share >= 0 && share <= 1)) {
    throw new EvidentError('invalid_option', `chunkDocument: contextShare must be in [0, 1], got ${String(share)}.`);
  }
  if (typeof opts.countTokens !== 'function') {
    throw new EvidentError('invalid_option', 'chunkDocument: countTokens must be a function (the embedder tokenizer).');
  }
  if (typeof input.text !== 'string' || typeof input.docId !== 'string') {
    throw new EvidentError('invalid_input', 'chunkDocument: docId and text must be strings.');
  }
  if (input.format !== 'markdown' && input.format !== 'text') {
    throw new EvidentError(
      'invalid_input',
      `chunkDocument: unknown format "${String(input.format)}". Allowed: markdown, text.`,
    );
  }
}

function checkedCount(countTokens: (s: string) => number, s: string): number {
  const n = countTokens(s);
  if (!Number.isFinite(n) || n < 0) {
    throw new EvidentError('invalid_option', `chunkDocument: countTokens returned ${n}; it must return a count ≥ 0.`);
  }
  return n;
}

/**
 * The atomic units of a block, trimmed and non-empty: sentences of a paragraph, lines of code and
 * table rows, the whole heading. Chunk boundaries fall only between units (or inside a unit that
 * alone exceeds `maxTokens`).
 */
export function blockUnits(text: string, block: Block): Span[] {
  switch (block.kind) {
    case 'paragraph':
      return splitSentences(text, block.start, block.end);
    case 'heading': {
      const unit = trimmed(text, block.start, block.end);
      return unit === null ? [] : [unit];
    }
    case 'code':
    case 'table': {
      const units: Span[] = [];
      let s = block.start;
      while (s < block.end) {
        const nl = text.indexOf('\n', s);
        const e = nl < 0 || nl > block.end ? block.end : nl;
        const unit = trimmed(text, s, e);
        if (unit !== null) units.push(unit);
        s = e + 1;
      }
      return units;
    }
  }
}

function trimmed(text: string, start: number, end: number): Span | null {
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return e > s ? { start: s, end: e } : null;
}

/**
 * Packs pieces (each within `max`) greedily into chunks within `target` by estimate and within
 * `max` by actual count, repeating up to `overlap` trailing pieces of the previous chunk.
 */
function pack(pieces: readonly Piece[], overlap: number, ctx: Context, emit: Emit): void {
  const n = pieces.length;
  if (n === 0) return;
  const { target, max, base } = ctx;
  // prefix[i] = estimated tokens of pieces [0, i) beyond the per-string base.
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = (prefix[i] as number) + Math.max(0, (pieces[i] as Piece).tokens - base);
  const estimate = (a: number, e: number): number => base + (prefix[e] as number) - (prefix[a] as number);
  const piece = (i: number): Piece => pieces[i] as Piece;
  const measure = (a: number, e: number): number =>
    e - a === 1 ? piece(a).tokens : ctx.count(piece(a).start, piece(e - 1).end);

  let next = 0; // first piece not yet in any chunk
  let prevStart = -1;
  while (next < n) {
    let a = overlap > 0 && prevStart >= 0 ? Math.max(prevStart + 1, next - overlap) : next;
    while (a < next && estimate(a, next + 1) > target) a++;
    let e = next + 1;
    while (e < n && estimate(a, e + 1) <= target) e++;

    let tokens = measure(a, e);
    if (tokens > max && a < next) {
      a = next; // drop the overlap before dropping new pieces
      tokens = measure(a, e);
    }
    if (tokens > max) {
      // Largest end that fits; [a, next + 1) is one piece, which fits by contract.
      let lo = next + 1;
      let loTokens = piece(next).tokens;
      let hi = e - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        const t = measure(a, mid);
        if (t <= max) {
          lo = mid;
          loTokens = t;
        } else {
          hi = mid - 1;
        }
      }
      e = lo;
      tokens = loTokens;
    }
    emit({ start: piece(a).start, end: piece(e - 1).end, tokens });
    prevStart = a;
    next = e;
  }
}

/** Pieces of a unit over `max` tokens: its words, and character cuts of words that are still over. */
function splitOversized(unit: Span, unitTokens: number, ctx: Context): Piece[] {
  const { text, max } = ctx;
  const pieces: Piece[] = [];
  let i = unit.start;
  while (i < unit.end) {
    while (i < unit.end && isSpace(text.charCodeAt(i))) i++;
    if (i >= unit.end) break;
    let j = i;
    while (j < unit.end && !isSpace(text.charCodeAt(j))) j++;
    const tokens = i === unit.start && j === unit.end ? unitTokens : ctx.count(i, j);
    if (tokens <= max) pieces.push({ start: i, end: j, tokens });
    else cutCharacters(i, j, ctx, pieces);
    i = j;
  }
  return pieces;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** First guess for a character cut's length, before any cut has been measured. */
const FIRST_CUT_GUESS = 64;

/** Cuts [start, end) (no whitespace inside) into the longest prefixes within `max` tokens. */
function cutCharacters(start: number, end: number, ctx: Context, out: Piece[]): void {
  const { text, max } = ctx;
  let pos = start;
  let guess = FIRST_CUT_GUESS;
  // Never end a cut between the halves of a surrogate pair.
  const snap = (len: number): number => {
    const at = pos + len;
    return at < end && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? len - 1 : len;
  };
  while (pos < end) {
    const remaining = end - pos;
    const known = new Map<number, number>();
    const tokensOf = (len: number): number => {
      let t = known.get(len);
      if (t === undefined) {
        t = ctx.count(pos, pos + len);
        known.set(len, t);
      }
      return t;
    };
    const fits = (len: number): boolean => tokensOf(len) <= max;

    // Gallop from the previous cut length to bracket the answer: lo fits (0 = nothing), hi does not.
    let lo = 0;
    let hi = remaining + 1;
    const first = Math.max(1, Math.min(guess, remaining));
    if (fits(first)) {
      lo = first;
      for (let step = 1; lo < remaining; step *= 2) {
        const p = Math.min(lo + step, remaining);
        if (!fits(p)) {
          hi = p;
          break;
        }
        lo = p;
      }
    } else {
      hi = first;
      for (let step = 1; hi > 1; step *= 2) {
        const p = Math.max(hi - step, 1);
        if (fits(p)) {
          lo = p;
          break;
        }
        hi = p;
      }
    }
    while (hi - lo > 1) {
      const mid = lo + ((hi - lo) >> 1);
      if (fits(mid)) lo = mid;
      else hi = mid;
    }

    let len = lo === 0 ? 0 : snap(lo);
    if (len === 0 || !fits(len)) {
      // Not even one code point fits (or only half of a pair did): the budget is unusable.
      len = isHigh(text.charCodeAt(pos)) && pos + 1 < end && isLow(text.charCodeAt(pos + 1)) ? 2 : 1;
      if (!fits(len)) {
        throw new EvidentError(
          'invalid_option',
          `chunkDocument: maxTokens (${max}) is smaller than the token count of one character (${tokensOf(len)}).`,
        );
      }
    }
    out.push({ start: pos, end: pos + len, tokens: tokensOf(len) });
    guess = len;
    pos += len;
  }
}
