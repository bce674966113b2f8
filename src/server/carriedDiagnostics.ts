// Carrying diagnostics across an edit: while a large document's names are being resolved again, its
// previous name diagnostics stay where they were (moved with the text around them), except those the
// edit touched, so that syntax errors can be shown at once without the others flickering away.

export interface OffsetDiagnostic {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly severity?: 'warning';
}

/** The one changed span between two texts: common prefix and suffix left out. */
export function changedSpan(before: string, after: string): { start: number; oldEnd: number; newEnd: number } {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (suffix < shorter - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

/** `diagnostics` of `before`, placed in `after`: untouched ones kept (those after the edit moved by
 * its length change), those overlapping or adjoining the changed span dropped. */
export function carryDiagnostics(diagnostics: readonly OffsetDiagnostic[], before: string, after: string): OffsetDiagnostic[] {
  const span = changedSpan(before, after);
  const delta = span.newEnd - span.oldEnd;
  const out: OffsetDiagnostic[] = [];
  for (const d of diagnostics) {
    if (d.end < span.start) out.push(d);
    else if (d.start > span.oldEnd) out.push({ ...d, start: d.start + delta, end: d.end + delta });
  }
  return out;
}
