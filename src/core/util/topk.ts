/**
 * Bounded top-k selection with a binary min-heap: O(n log k) over n pushes, no full sort.
 *
 * Ordering is total and deterministic: higher score first; on equal scores the smaller id wins
 * (so results do not depend on push order). NaN scores are ignored: they cannot be ranked.
 */
export class TopK {
  readonly k: number;
  private readonly ids: Float64Array;
  private readonly scores: Float64Array;
  private size = 0;

  /** @param k how many best entries to keep (0 keeps nothing). Ids must be integers. */
  constructor(k: number) {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`TopK: k must be a non-negative integer, got ${k}`);
    this.k = k;
    // Float64 ids keep any safe integer exact; heap storage in typed arrays avoids object churn.
    this.ids = new Float64Array(k);
    this.scores = new Float64Array(k);
  }

  /** Number of entries currently kept (≤ k). */
  get length(): number {
    return this.size;
  }

  /**
   * A score below this cannot be kept (equal may be, on a smaller id): the worst kept score once
   * full, -Infinity before, +Infinity when k = 0. Lets a scan skip `push` for most candidates.
   */
  get threshold(): number {
    if (this.k === 0) return Infinity;
    return this.size < this.k ? -Infinity : (this.scores[0] as number);
  }

  /** Offers one (id, score). Returns true when it was kept. */
  push(id: number, score: number): boolean {
    if (this.k === 0 || Number.isNaN(score)) return false;
    if (this.size < this.k) {
      this.ids[this.size] = id;
      this.scores[this.size] = score;
      this.siftUp(this.size++);
      return true;
    }
    // Root is the worst kept entry; replace it only when the new one ranks better.
    if (!better(score, id, this.scores[0] as number, this.ids[0] as number)) return false;
    this.ids[0] = id;
    this.scores[0] = score;
    this.siftDown(0);
    return true;
  }

  /** Kept entries, best first. Does not consume the heap. */
  results(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < this.size; i++) out.push({ id: this.ids[i] as number, score: this.scores[i] as number });
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    return out;
  }

  /** Empties the heap so the instance can be reused for another query. */
  clear(): void {
    this.size = 0;
  }

  private siftUp(i: number): void {
    const { ids, scores } = this;
    const id = ids[i] as number;
    const s = scores[i] as number;
    while (i > 0) {
      const p = (i - 1) >> 1;
      // Min-heap on rank: the parent must be worse than (or equal to) the child.
      if (!better(scores[p] as number, ids[p] as number, s, id)) break;
      ids[i] = ids[p] as number;
      scores[i] = scores[p] as number;
      i = p;
    }
    ids[i] = id;
    scores[i] = s;
  }

  private siftDown(i: number): void {
    const { ids, scores, size } = this;
    const id = ids[i] as number;
    const s = scores[i] as number;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let w = l;
      if (r < size && better(scores[l] as number, ids[l] as number, scores[r] as number, ids[r] as number)) w = r;
      if (!better(s, id, scores[w] as number, ids[w] as number)) break;
      ids[i] = ids[w] as number;
      scores[i] = scores[w] as number;
      i = w;
    }
    ids[i] = id;
    scores[i] = s;
  }
}

/** True when (sa, ia) ranks strictly before (sb, ib): higher score, then smaller id. */
function better(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa > sb || (sa === sb && ia < ib);
}
