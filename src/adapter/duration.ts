// Go-style durations (time.ParseDuration): "1m30s", "250ms", "2s", "1.5h", "0". Values are milliseconds.

const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const part = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/** Longest duration a Node timer can wait (2^31-1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Parses a Go duration to milliseconds, or returns an error message. Durations longer than
 * MAX_DURATION_MS are refused rather than let overflow a timer. */
export function parseDuration(text: string): number | { error: string } {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return { error: `invalid duration "${text}"` };
  let total = 0;
  while (rest !== '') {
    const m = part.exec(rest);
    if (!m) {
      const hint = /^\d+(\.\d*)?$/.test(rest) ? ' (missing unit: use ns, us, ms, s, m or h, e.g. 30s)' : '';
      return { error: `invalid duration "${text}"${hint}` };
    }
    total += Number(m[1]) * unitMs[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  if (total > MAX_DURATION_MS) return { error: `duration "${text}" is longer than the longest supported, ${formatDuration(MAX_DURATION_MS)}` };
  return sign * total;
}

/** Formats milliseconds the way Go prints durations, shortened: 1m30s, 250ms, 2s. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${Number(ms.toFixed(3))}ms`;
  let rest = ms / 1000;
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  rest -= m * 60;
  const s = Number(rest.toFixed(3));
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
