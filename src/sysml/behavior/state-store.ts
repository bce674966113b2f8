// The explorer's visited set: the canonical keys of the states seen (Runtime.writeKey: bytes written
// straight into a StateKey, no string built), stored back to back in one growing buffer with an
// open-addressing table of their offsets. Exact, like a Set<string> (two keys are the same state only
// when all their bytes are equal), but a million states are a few buffers instead of a million
// retained strings: a Set of them spent most of the explorer's time copying those strings through
// garbage collection.
//
// Layout, for few cache misses per lookup: each slot of the table holds an entry's hash and where its
// bytes start, side by side, so a probe compares hashes without leaving the table; an entry's bytes
// are its length (one byte, or 0xff and four bytes) followed by the key.

/** Bytes of bookkeeping per stored state besides its key: length prefix and table slots. */
export const STATE_OVERHEAD_BYTES = 20;

/** The index of recent entries (StateSet.recent): 2^RECENT_BITS slots of 8 bytes, in the processor's second-level cache. */
const RECENT_BITS = 15;

/**
 * A state's key being written: bytes in a reusable buffer. Each write is self-delimiting (a number's
 * bytes say where it ends, a text is its length then its characters), so keys built by the same
 * sequence of writes are equal only when every value written is equal.
 */
export class StateKey {
  bytes = new Uint8Array(256);
  length = 0;
  /** Changes at every reset: the set knows whether the key it last looked up is still this one. */
  version = 0;

  reset(): void {
    this.length = 0;
    this.version++;
  }

  private room(k: number): void {
    if (this.length + k <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + k));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Room for `k` more bytes (a writer may then write them straight into `bytes`). */
  reserve(k: number): void {
    if (this.length + k > this.bytes.length) this.room(k);
  }

  byte(b: number): void {
    if (this.length === this.bytes.length) this.room(1);
    this.bytes[this.length++] = b;
  }

  /** A non-negative integer (up to 2^53), seven bits a byte, the high bit set on all but the last. */
  uint(u: number): void {
    if (u < 0x80 && this.length < this.bytes.length) {
      this.bytes[this.length++] = u;
      return;
    }
    this.room(8);
    const out = this.bytes;
    let n = this.length;
    while (u >= 0x80) {
      out[n++] = (u % 0x80) | 0x80;
      u = Math.floor(u / 0x80);
    }
    out[n++] = u;
    this.length = n;
  }

  /** A text: its length, then each character (below 0xff one byte; others 0xff, high, low). */
  text(t: string): void {
    const len = t.length;
    this.uint(len);
    this.room(len * 3);
    const out = this.bytes;
    let n = this.length;
    for (let i = 0; i < len; i++) {
      const c = t.charCodeAt(i);
      if (c < 0xff) out[n++] = c;
      else {
        out[n++] = 0xff;
        out[n++] = c >>> 8;
        out[n++] = c & 0xff;
      }
    }
    this.length = n;
  }
}

export class StateSet {
  /** Entries back to back: length prefix, then the key's bytes. */
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private count = 0;
  /** Two ints per slot: hash, and entry offset + 1 (0: empty); at most half the slots full. */
  private slots = new Int32Array(2 << 11);
  /**
   * The entries added or found last, by hash (two ints a slot, as in `slots`; a newer entry takes
   * the slot of an older one): a search meets again mostly states it stored a little earlier (in a
   * depth-first search, the other orders of a few independent moves), whose bytes are still in the
   * processor's caches, while the table's slot for them is anywhere in a table of many megabytes.
   * A key found here is compared byte for byte like one found in the table, so the set stays exact;
   * a key not found here is looked up in the table. It grows with the table, up to 2^RECENT_BITS
   * slots (a small search allocates little).
   */
  private recent = new Int32Array(2 << 10);
  private recentMask = (1 << 10) - 1;
  /** The last key `has` looked up, while it is unchanged: `add` of the same key (the explorer's
   * has-then-add) then hashes and probes once. */
  private lastKey: StateKey | null = null;
  private lastVersion = -1;
  private lastHash = 0;
  /** Where `has` found the key (its entry's offset), or -1. */
  private lastFound = -1;
  /** When `has` did not find it: the table slot it would go in. */
  private lastSlot = 0;

  get size(): number {
    return this.count;
  }

  /** The entry `has` last found, as a number that stays its own (where its bytes start), or -1. */
  get foundId(): number {
    return this.lastFound;
  }

  /** The entry `add` last stored (where its bytes start). */
  addedId = -1;

  /** The stored bytes: the key of the entry `id` (foundId, addedId) is `keyLength(id)` bytes from `keyStart(id)`; valid until the next `add`. */
  get stored(): Uint8Array {
    return this.bytes;
  }

  keyStart(id: number): number {
    return this.bytes[id] === 0xff ? id + 5 : id + 1;
  }

  keyLength(id: number): number {
    const b = this.bytes;
    const len = b[id]!;
    return len !== 0xff ? len : ((b[id + 1]! << 24) | (b[id + 2]! << 16) | (b[id + 3]! << 8) | b[id + 4]!) >>> 0;
  }

  /** Bytes held: the buffers' capacity. */
  get memoryBytes(): number {
    return this.bytes.byteLength + this.slots.byteLength + this.recent.byteLength;
  }

  /** Bytes one more state of this key is estimated to take. */
  static entryBytes(key: StateKey): number {
    return key.length + STATE_OVERHEAD_BYTES;
  }

  has(key: StateKey): boolean {
    const h = this.hash(key);
    this.lastKey = key;
    this.lastVersion = key.version;
    this.lastHash = h;
    return this.look(key, h);
  }

  /** Finds the key (lastFound), or the slot it would go in (lastSlot). */
  private look(key: StateKey, h: number): boolean {
    const r = (h & this.recentMask) << 1;
    const recent = this.recent;
    if (recent[r] === h) {
      const at = recent[r + 1]! - 1;
      if (at >= 0 && this.equalAt(at, key)) {
        this.lastFound = at;
        return true;
      }
    }
    const slot = this.find(key, h);
    if (slot >= 0) {
      const at = this.slots[slot + 1]! - 1;
      this.lastFound = at;
      recent[r] = h;
      recent[r + 1] = at + 1;
      return true;
    }
    this.lastFound = -1;
    this.lastSlot = ~slot;
    return false;
  }

  /** Adds a state's key; false when it was already there. */
  add(key: StateKey): boolean {
    let h: number;
    let found: boolean;
    if (key === this.lastKey && key.version === this.lastVersion) {
      h = this.lastHash;
      found = this.lastFound >= 0;
    } else {
      h = this.hash(key);
      found = this.look(key, h);
    }
    this.lastKey = null;
    if (found) return false;
    const slot = this.lastSlot;
    const n = key.length;
    const need = n + 5;
    if (this.used + need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + need));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    const start = this.used;
    this.addedId = start;
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
    const from = key.bytes;
    for (let k = 0; k < n; k++) bytes[p + k] = from[k]!;
    this.used = p + n;
    this.count++;
    this.slots[slot] = h;
    this.slots[slot + 1] = start + 1;
    const r = (h & this.recentMask) << 1;
    this.recent[r] = h;
    this.recent[r + 1] = start + 1;
    if (this.count * 4 > this.slots.length) this.rehash();
    return true;
  }

  /** FNV-1a over the key's bytes. */
  private hash(key: StateKey): number {
    const b = key.bytes;
    const n = key.length;
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
    return h;
  }

  /** Whether the entry starting at `at` holds exactly the key's bytes. */
  private equalAt(at: number, key: StateKey): boolean {
    const bytes = this.bytes;
    const b = key.bytes;
    const n = key.length;
    let p = at;
    let len = bytes[p++]!;
    if (len === 0xff) {
      len = ((bytes[p]! << 24) | (bytes[p + 1]! << 16) | (bytes[p + 2]! << 8) | bytes[p + 3]!) >>> 0;
      p += 4;
    }
    if (len !== n) return false;
    let k = 0;
    while (k < n && bytes[p + k] === b[k]) k++;
    return k === n;
  }

  /** The slot (index of its hash in `slots`) holding the key, or ~(the empty slot where it would go). */
  private find(key: StateKey, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >>> 1) - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const at = i << 1;
      const s = slots[at + 1]!;
      if (s === 0) return ~at;
      if (slots[at] === h && this.equalAt(s - 1, key)) return at;
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
    // A new, larger index of recent entries (it is only a shortcut: starting it empty loses nothing).
    const bits = Math.min(RECENT_BITS, Math.log2(slots.length >>> 3));
    if ((1 << bits) > this.recentMask + 1) {
      this.recent = new Int32Array(2 << bits);
      this.recentMask = (1 << bits) - 1;
    }
  }
}
