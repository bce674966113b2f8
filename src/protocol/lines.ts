// NDJSON framing: bytes in, one string per `\n`-terminated line out. Written by hand (not vscode-jsonrpc's
// Content-Length framing) so that a huge line, a partial line or binary garbage can never crash or stall it:
// chunks are kept as a list (no quadratic concatenation) and a line beyond `maxLineBytes` is skipped up
// to its newline and reported once.

export interface LineSink {
  line(text: string): void;
  /** A line longer than the limit was dropped; `head` is its first bytes decoded. */
  overlong(bytes: number, head: string): void;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = false;
  private skippedBytes = 0;
  private skippedHead = '';

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    const first = chunk.indexOf(10);
    if (first < 0) {
      if (chunk.length > 0) this.keep(chunk);
      return;
    }
    // The first line may finish one held from earlier chunks (or one being skipped).
    this.finishLine(chunk, 0, first);
    const last = chunk.lastIndexOf(10);
    if (last > first) this.completeLines(chunk, first + 1, last);
    if (last + 1 < chunk.length) this.keep(chunk.subarray(last + 1));
  }

  /**
   * The whole lines between `start` and the newline at `end`, decoded in one call and split as text
   * (a newline byte never occurs inside a UTF-8 sequence, so the lines are the same).
   */
  private completeLines(chunk: Buffer, start: number, end: number): void {
    const text = chunk.toString('utf8', start, end);
    let from = 0;
    for (;;) {
      const newline = text.indexOf('\n', from);
      const stop = newline < 0 ? text.length : newline;
      this.emit(text, from, stop);
      if (newline < 0) return;
      from = newline + 1;
    }
  }

  private emit(text: string, from: number, stop: number): void {
    // Tolerate CRLF line ends; JSON never ends in a bare CR.
    const cut = stop > from && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    const line = from === 0 && cut === text.length ? text : text.slice(from, cut);
    // A character takes at most 3 bytes per UTF-16 unit: only a long line needs its bytes counted
    // (its CR included, as the byte limit counts everything before the newline).
    if ((stop - from) * 3 > this.maxLineBytes) {
      const bytes = Buffer.byteLength(line, 'utf8') + (cut < stop ? 1 : 0);
      if (bytes > this.maxLineBytes) {
        this.sink.overlong(bytes, Buffer.from(line.slice(0, 200), 'utf8').toString('utf8', 0, 200));
        return;
      }
    }
    this.sink.line(line);
  }

  /** Bytes of an unterminated line still held (the stream ended or is mid-line). */
  get pendingBytes(): number {
    return this.skipping ? this.skippedBytes : this.partBytes;
  }

  /** Takes what is left of an unterminated line, decoded, and forgets it. */
  takePending(): string | undefined {
    if (this.skipping) {
      const head = this.skippedHead;
      this.resetSkip();
      return head;
    }
    if (this.partBytes === 0) return undefined;
    const text = Buffer.concat(this.parts, this.partBytes).toString('utf8');
    this.parts = [];
    this.partBytes = 0;
    return text;
  }

  private keep(piece: Buffer): void {
    if (this.skipping) {
      this.skippedBytes += piece.length;
      return;
    }
    if (this.partBytes + piece.length > this.maxLineBytes) {
      this.startSkip(piece);
      return;
    }
    // Copy: the caller's chunk may be reused by the stream.
    this.parts.push(Buffer.from(piece));
    this.partBytes += piece.length;
  }

  private finishLine(chunk: Buffer, start: number, end: number): void {
    if (this.skipping) {
      const bytes = this.skippedBytes + (end - start);
      const head = this.skippedHead;
      this.resetSkip();
      this.sink.overlong(bytes, head);
      return;
    }
    const length = end - start;
    if (this.partBytes + length > this.maxLineBytes) {
      const bytes = this.partBytes + length;
      const head = this.headOf(chunk.subarray(start, end));
      this.parts = [];
      this.partBytes = 0;
      this.sink.overlong(bytes, head);
      return;
    }
    let text: string;
    if (this.partBytes === 0) {
      text = chunk.toString('utf8', start, end);
    } else {
      this.parts.push(chunk.subarray(start, end));
      text = Buffer.concat(this.parts, this.partBytes + length).toString('utf8');
      this.parts = [];
      this.partBytes = 0;
    }
    // Tolerate CRLF line ends; JSON never ends in a bare CR.
    if (text.length > 0 && text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    this.sink.line(text);
  }

  private startSkip(piece: Buffer): void {
    this.skippedHead = this.headOf(piece);
    this.skippedBytes = this.partBytes + piece.length;
    this.parts = [];
    this.partBytes = 0;
    this.skipping = true;
  }

  private headOf(piece: Buffer): string {
    const first = this.parts.length > 0 ? this.parts[0]! : piece;
    return first.toString('utf8', 0, Math.min(first.length, 200));
  }

  private resetSkip(): void {
    this.skipping = false;
    this.skippedBytes = 0;
    this.skippedHead = '';
  }
}

/** A line shortened for an error message: its first 200 characters and its full length. */
export function excerpt(line: string, max = 200): string {
  const flat = line.replace(/[\u0000-\u001f]/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max)}… (${line.length} characters)`;
}
