/**
 * The most frequent names of a stream in fixed memory: the space-saving algorithm (Metwally,
 * Agrawal, El Abbadi, "Efficient computation of frequent and top-k elements in data streams",
 * 2005). `capacity` counters; a name not held replaces the least counted one and inherits its
 * count as its possible error. Any name seen more than N/capacity times (N the stream's length)
 * is held, and `count - error` never overstates how often a name was seen. The least counted
 * entry is the root of a min-heap, so an add costs O(log capacity) whatever the names: a flood of
 * random names costs a replacement each and never more memory.
 */
export class SpaceSaving {
  private readonly counts: Float64Array;
  private readonly errors: Float64Array;
  private readonly hashes: Int32Array;
  /** As stored: for the query counters, the name's wire octets as a latin1 string (one native copy), made readable only when read. */
  private readonly names: string[];
  /** heap[i]: the slot at heap position i; pos[slot]: its position. */
  private readonly heap: Int32Array;
  private readonly pos: Int32Array;
  private readonly bySlot = new Map<number, number>();
  private size = 0;

  constructor(readonly capacity: number) {
    this.counts = new Float64Array(capacity);
    this.errors = new Float64Array(capacity);
    this.hashes = new Int32Array(capacity);
    this.names = new Array<string>(capacity).fill('');
    this.heap = new Int32Array(capacity);
    this.pos = new Int32Array(capacity);
  }

  /**
   * Counts `weight` occurrences of the name with this hash (space-saving's weighted form). Returns the slot when the name was not held
   * and has just taken one (the caller then gives its text with `name`), else -1: the text is made
   * only for names that take a slot.
   */
  add(hash: number, weight = 1): number {
    // 30 bits: a small integer to V8 (a Smi), so the map neither hashes nor allocates a number.
    hash &= 0x3fffffff;
    const held = this.bySlot.get(hash);
    if (held !== undefined) {
      this.counts[held]! += weight;
      this.down(this.pos[held]!);
      return -1;
    }
    let slot: number;
    let base = 0;
    if (this.size < this.capacity) {
      slot = this.size;
      this.heap[slot] = slot;
      this.pos[slot] = slot;
      this.size++;
      this.counts[slot] = 0;
      this.up(slot);
    } else {
      slot = this.heap[0]!;
      base = this.counts[slot]!;
      this.bySlot.delete(this.hashes[slot]!);
    }
    this.hashes[slot] = hash;
    this.counts[slot] = base + weight;
    this.errors[slot] = base;
    this.bySlot.set(hash, slot);
    this.down(this.pos[slot]!);
    return slot;
  }

  /** The text of the name in `slot` (after `add` returned it). */
  name(slot: number, text: string): void {
    this.names[slot] = text;
  }

  /** Adds and names in one step (for callers whose names are strings already). */
  addNamed(hash: number, text: string): void {
    const slot = this.add(hash);
    if (slot >= 0) this.names[slot] = text;
  }

  get length(): number {
    return this.size;
  }

  /** The held names, most counted first: `count` may overstate by up to `error`; `text` turns a stored name into what is shown. */
  entries(text: (stored: string) => string = (x) => x): Array<{ name: string; count: number; error: number }> {
    const out = [];
    for (let s = 0; s < this.size; s++) out.push({ name: text(this.names[s]!), count: this.counts[s]!, error: this.errors[s]! });
    return out.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
  }

  clear(): void {
    this.size = 0;
    this.bySlot.clear();
    this.names.fill('');
  }

  private up(i: number): void {
    const { heap, pos, counts } = this;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (counts[heap[parent]!]! <= counts[heap[i]!]!) break;
      this.swap(i, parent, heap, pos);
      i = parent;
    }
  }

  private down(i: number): void {
    const { heap, pos, counts } = this;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && counts[heap[r]!]! < counts[heap[l]!]! ? r : l;
      if (counts[heap[i]!]! <= counts[heap[c]!]!) return;
      this.swap(i, c, heap, pos);
      i = c;
    }
  }

  private swap(i: number, j: number, heap: Int32Array, pos: Int32Array): void {
    const a = heap[i]!;
    const b = heap[j]!;
    heap[i] = b;
    heap[j] = a;
    pos[b] = i;
    pos[a] = j;
  }
}
