// The explorer's visited set: the canonical encodings of the states seen (Runtime.encode), stored
// as bytes in one growing buffer with an open-addressing table of their offsets. Exact, like a
// Set<string> (two encodings are the same state only when all their characters are equal), but a
// million states are a few buffers instead of a million retained strings: a Set of them spent most
// of the explorer's time copying those strings through garbage collection.
//
// Layout, for few cache misses per lookup: each slot of the table holds an entry's hash and where its
// bytes start, side by side, so a probe compares hashes without leaving the table; an entry's bytes
// are its length (one byte, or 0xff and four bytes) followed by the encoding.

/** Bytes of bookkeeping per stored state besides its encoding: length prefix and table slots. */
export const STATE_OVERHEAD_BYTES = 20;

export class StateSet {
  /** Entries back to back: length prefix, then the encoding (a character below 0xff is one byte; others 0xff, high, low). */
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private count = 0;
  /** Two ints per slot: hash, and entry offset + 1 (0: empty); at most half the slots full. */
  private slots = new Int32Array(2 << 11);
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
    return this.bytes.byteLength + this.slots.byteLength + this.scratch.byteLength;
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
    const need = n + 5;
    if (this.used + need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + need));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    const start = this.used;
    const bytes = this.bytes;
    let p = start;
    if (n < 0xff) bytes[p++] = n;
    else {
      bytes[p++] = 0xff;
      bytes[p++] = n >>> 24;
      bytes[p++] = (n >>> 16) & 0xff;
      bytes[p++] = (n >>> 8) & 0xff;
      bytes[p++] = n & 0xff;
    }
    bytes.set(this.scratch.subarray(0, n), p);
    this.used = p + n;
    this.count++;
    this.slots[slot] = h;
    this.slots[slot + 1] = start + 1;
    if (this.count * 4 > this.slots.length) this.rehash();
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

  /** The slot (index of its hash in `slots`) holding the scratch bytes, or ~(the empty slot where they would go). */
  private find(n: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >>> 1) - 1;
    const b = this.scratch;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i << 1;
      const s = slots[at + 1]!;
      if (s === 0) return ~at;
      if (slots[at] !== h) continue;
      const bytes = this.bytes;
      let p = s - 1;
      let len = bytes[p++]!;
      if (len === 0xff) {
        len = ((bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!) >>> 0;
        p += 4;
      }
      if (len !== n) continue;
      let k = 0;
      while (k < n && bytes[p + k] === b[k]) k++;
      if (k === n) return at;
    }
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >>> 1) - 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] === 0) continue;
      const h = old[at]!;
      let i = h & mask;
      while (slots[(i << 1) + 1] !== 0) i = (i + 1) & mask;
      slots[i << 1] = h;
      slots[(i << 1) + 1] = old[at + 1]!;
    }
    this.slots = slots;
  }
}
