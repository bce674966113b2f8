// Hostile texts shared by the parser and language-server fuzzers: mutated corpus files (deleted,
// duplicated, swapped and replaced tokens, truncations, spliced fragments), random token soup, and long
// operator chains and deep nesting.
import { tokenize, KEYWORDS } from '../../src/sysml/lexer';
import type { Language } from '../../src/sysml/ast';

export interface Sample { readonly path: string; readonly text: string; readonly language: Language }

// Small deterministic PRNG (mulberry32) so a failing case can be replayed from its seed.
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYMBOLS = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '::', ':>', ':>>', '::>', ':=', '=', '==', '.', '..',
  '.?', '->', '#', '@', '@@', '*', '**', '~', '?', '??', '<', '>', '$', '/*', '*/', '"', "'", '//', '\n'];

export function mutate(sample: Sample, all: readonly Sample[], rnd: () => number): string {
  let text = sample.text;
  const steps = 1 + Math.floor(rnd() * 4);
  for (let s = 0; s < steps; s++) {
    const ts = tokenize(text, sample.language);
    const n = ts.count - 1; // without EOF
    const pick = (): number => Math.floor(rnd() * Math.max(1, n));
    const tok = (i: number): string => text.slice(ts.starts[i]!, ts.ends[i]!);
    const op = Math.floor(rnd() * 9);
    if (n === 0 || op === 0) {
      // truncate anywhere
      text = text.slice(0, Math.floor(rnd() * text.length));
      continue;
    }
    const i = pick();
    const a = ts.starts[i]!;
    const b = ts.ends[i]!;
    switch (op) {
      case 1: text = text.slice(0, a) + text.slice(b); break; // delete a token
      case 2: text = text.slice(0, b) + ' ' + tok(i) + text.slice(b); break; // duplicate a token
      case 3: { // swap with the next token
        if (i + 1 >= n) break;
        const c = ts.starts[i + 1]!;
        const d = ts.ends[i + 1]!;
        text = text.slice(0, a) + tok(i + 1) + text.slice(b, c) + tok(i) + text.slice(d);
        break;
      }
      case 4: text = text.slice(0, a) + KEYWORDS[Math.floor(rnd() * KEYWORDS.length)] + text.slice(b); break; // replace with a keyword
      case 5: text = text.slice(0, a) + SYMBOLS[Math.floor(rnd() * SYMBOLS.length)] + text.slice(b); break; // replace with a symbol
      case 6: { // delete a run of tokens
        const j = Math.min(n - 1, i + 1 + Math.floor(rnd() * 20));
        text = text.slice(0, a) + text.slice(ts.ends[j]!);
        break;
      }
      case 7: { // splice a fragment of another file
        const other = all[Math.floor(rnd() * all.length)]!.text;
        const from = Math.floor(rnd() * other.length);
        text = text.slice(0, a) + other.slice(from, from + Math.floor(rnd() * 400)) + text.slice(a);
        break;
      }
      case 8: { // move a block of text elsewhere
        const len = Math.floor(rnd() * 300);
        const chunk = text.slice(a, a + len);
        const rest = text.slice(0, a) + text.slice(a + len);
        const at = Math.floor(rnd() * rest.length);
        text = rest.slice(0, at) + chunk + rest.slice(at);
        break;
      }
    }
  }
  return text;
}

export function tokenSoup(rnd: () => number): string {
  const parts: string[] = [];
  const len = Math.floor(rnd() * 400);
  for (let i = 0; i < len; i++) {
    const r = rnd();
    if (r < 0.4) parts.push(KEYWORDS[Math.floor(rnd() * KEYWORDS.length)]!);
    else if (r < 0.75) parts.push(SYMBOLS[Math.floor(rnd() * SYMBOLS.length)]!);
    else if (r < 0.9) parts.push(`n${Math.floor(rnd() * 5)}`);
    else parts.push(String(Math.floor(rnd() * 100)));
  }
  return parts.join(rnd() < 0.5 ? ' ' : '');
}

// Long operator chains and deep nesting: every binary operator, the postfix forms and the bracketing
// forms, thousands deep, alone, mixed and nested in each other, inside a declaration. The tree walks
// after the parser (names here, evaluation and the language server elsewhere) must survive whatever
// the parser lets through.
const BINARY_OPS = ['+', '-', '*', '/', '%', '**', '^', '..', '<', '>', '<=', '>=', '==', '!=', '===', '!==', 'and', '&',
  'or', '|', 'xor', 'implies', '??'];
const POSTFIX = ['.a', '[1]', '[m]', '#(1)', '->f()', '->sum()', '.?{in x; true}', '.{in x; x}', '.a(1)', ' istype T', ' as T', ' @@ T'];
const NESTING: [string, string][] = [['(', ')'], ['f(', ')'], ['a[', ']'], ['a#(', ')'], ['{ ', ' }'], ['if true ? ', ' else 0'],
  ['-', ''], ['not ', ''], ['~', ''], ['all ', ''], ['(1, ', ')'], ['g(p = ', ')'], ['x->f(', ')']];

export function longChain(rnd: () => number): string {
  const length = (): number => Math.floor(Math.exp(rnd() * Math.log(6000)));
  const build = (level: number): string => {
    const r = rnd();
    if (level > 2 || r < 0.3) {
      const op = BINARY_OPS[Math.floor(rnd() * BINARY_OPS.length)]!;
      const n = length();
      const term = (): string => (level < 3 && rnd() < 0.01 ? `(${build(level + 1)})` : String(Math.floor(rnd() * 9) + 1));
      return Array.from({ length: n }, term).join(rnd() < 0.5 ? ` ${op} ` : op);
    }
    if (r < 0.55) {
      const n = length();
      const parts: string[] = ['a'];
      for (let i = 0; i < n; i++) parts.push(POSTFIX[Math.floor(rnd() * (rnd() < 0.7 ? 2 : POSTFIX.length))]!);
      return parts.join('');
    }
    if (r < 0.8) {
      const [open, close] = NESTING[Math.floor(rnd() * NESTING.length)]!;
      const n = length();
      return open.repeat(n) + build(level + 1) + close.repeat(n);
    }
    // a mix: an operator chain whose terms are themselves chains or nested forms
    const op = BINARY_OPS[Math.floor(rnd() * BINARY_OPS.length)]!;
    return Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => build(level + 1)).join(` ${op} `);
  };
  const expr = build(0);
  const r = rnd();
  if (r < 0.6) return `package P {\n  part a { part a; }\n  attribute x = ${expr};\n  attribute y = x + 1;\n}\n`;
  if (r < 0.8) return `package P { calc def F { in p : Real; ${expr} } constraint c { ${expr} } }\n`;
  // cut anywhere: unclosed chains and nesting
  const cut = `package P { attribute x = ${expr}; }`;
  return cut.slice(0, Math.floor(rnd() * cut.length));
}

/** Case `c`'s text: one in ten token soup, two in ten a long chain or deep nesting, else a mutated
 * corpus file. */
export function hostileText(c: number, samples: readonly Sample[], rnd: () => number): { text: string; language: Language; kind: string } {
  const soup = c % 10 === 9;
  const chain = c % 10 === 8 || c % 10 === 4;
  const sample = samples[Math.floor(rnd() * samples.length)]!;
  const language: Language = chain ? 'sysml' : soup ? (rnd() < 0.5 ? 'sysml' : 'kerml') : sample.language;
  const text = chain ? longChain(rnd) : soup ? tokenSoup(rnd) : mutate(sample, samples, rnd);
  return { text, language, kind: chain ? 'long chain' : soup ? 'token soup' : sample.path };
}
