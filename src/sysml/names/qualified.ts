// Qualified names as text: `A::B::'c d'` <-> segments.

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One segment as the notation spells it: plain names bare, others in unrestricted-name quotes. */
export function formatSegment(name: string): string {
  if (PLAIN.test(name)) return name;
  return `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function formatQualifiedName(segments: readonly string[]): string {
  return segments.map(formatSegment).join('::');
}

/** Splits `A::B::'c d'` into segments (quotes and escapes resolved); `$::` prefix dropped.
 * Returns null for text that is not a qualified name. */
export function parseQualifiedName(text: string): string[] | null {
  let s = text.trim();
  if (s.startsWith('$::')) s = s.slice(3);
  const segments: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === "'") {
      let name = '';
      i++;
      while (i < s.length && s[i] !== "'") {
        if (s[i] === '\\' && i + 1 < s.length) {
          const c = s[i + 1]!;
          name += c === 'n' ? '\n' : c === 't' ? '\t' : c;
          i += 2;
        } else name += s[i++];
      }
      if (s[i] !== "'") return null;
      i++;
      segments.push(name);
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i));
      if (!m) return null;
      segments.push(m[0]);
      i += m[0].length;
    }
    if (i === s.length) break;
    if (s.slice(i, i + 2) !== '::') return null;
    i += 2;
    if (i === s.length) return null;
  }
  return segments.length === 0 ? null : segments;
}
