// The explorer's visited set: the canonical encodings of the states seen (Runtime.encode), stored
// as bytes in one growing buffer with an open-addressing table of their offsets. Exact, like a
// Set<string> (two encodings are the same state only when all their characters are equal), but a
// million states are a few buffers instead of a million retained strings: a Set of them spent most
// of the explorer's time copying those strings through garbage collection.

/** Bytes of bookkeeping per stored state besides its encoding: offset, length, hash, two slots. */
export const STATE_OVERHEAD_BYTES = 20;

export class StateSet {
  /** Encoded states, back to back. A character below 0xff is one byte; others 0xff, high, low. */
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private starts = new Int32Array(1 << 10);
  private lengths = new Int32Array(1 << 10);
  private hashes = new Int32Array(1 << 10);
  private count = 0;
  /** Entry number + 1 per slot (0: empty); at most half full. */
  private slots = new Int32Array(1 << 11);
  private scratch = new Uint8Array(256);
  /** The last key `has` looked up, while the scratch buffer still holds it: `add` of the same key
   * (the explorer's has-then-add) then encodes and probes once. */
  private lastKey: string | null = null;
  private lastN = 0;
  private lastHash = 0;
  private lastSlot = 0;

  get size(): number {
    return this.count;
  }

  /** Bytes held: the buffers' capacity. */
  get memoryBytes(): number {
    return this.bytes.byteLength + this.starts.byteLength * 3 + this.slots.byteLength + this.scratch.byteLength;
  }

  /** Bytes one more state of this encoding is estimated to take. */
  static entryBytes(key: string): number {
    return key.length + STATE_OVERHEAD_BYTES;
  }

  has(key: string): boolean {
    const n = this.encode(key);
    const h = this.hash(n);
    const slot = this.find(n, h);
    this.lastKey = key;
    this.lastN = n;
    this.lastHash = h;
    this.lastSlot = slot;
    return slot >= 0;
  }

  /** Adds a state's encoding; false when it was already there. */
  add(key: string): boolean {
    let n: number;
    let h: number;
    let slot: number;
    if (key === this.lastKey) {
      n = this.lastN;
      h = this.lastHash;
      slot = this.lastSlot;
    } else {
      n = this.encode(key);
      h = this.hash(n);
      slot = this.find(n, h);
    }
    this.lastKey = null;
    if (slot >= 0) return false;
    slot = ~slot;
    if (this.count === this.starts.length) this.growEntries();
    if (this.used + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(this.scratch.subarray(0, n), this.used);
    const e = this.count++;
    this.starts[e] = this.used;
    this.lengths[e] = n;
    this.hashes[e] = h;
    this.used += n;
    this.slots[slot] = e + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
    return true;
  }

  /** Writes the key's bytes to the scratch buffer; returns their number. */
  private encode(key: string): number {
    const len = key.length;
    if (this.scratch.length < len * 3) this.scratch = new Uint8Array(len * 3);
    const out = this.scratch;
    let n = 0;
    for (let i = 0; i < len; i++) {
      const c = key.charCodeAt(i);
      if (c < 0xff) out[n++] = c;
      else {
        out[n++] = 0xff;
        out[n++] = c >>> 8;
        out[n++] = c & 0xff;
      }
    }
    return n;
  }

  /** FNV-1a over the scratch bytes. */
  private hash(n: number): number {
    const b = this.scratch;
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    return h;
  }

  /** The slot holding the scratch bytes, or ~(the empty slot where they would go). */
  private find(n: number, h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const b = this.scratch;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) return ~i;
      const e = s - 1;
      if (this.hashes[e] !== h || this.lengths[e] !== n) continue;
      const start = this.starts[e]!;
      const bytes = this.bytes;
      let k = 0;
      while (k < n && bytes[start + k] === b[k]) k++;
      if (k === n) return i;
    }
  }

  private growEntries(): void {
    const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const g = new Int32Array(a.length * 2);
      g.set(a);
      return g;
    };
    this.starts = grow(this.starts);
    this.lengths = grow(this.lengths);
    this.hashes = grow(this.hashes);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let i = this.hashes[e]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = e + 1;
    }
    this.slots = slots;
  }
}
