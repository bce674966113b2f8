// V8 flags the programs that parse whole models are started with: the reference engine (through
// `referenceEngineEntry`) and the language server (src/extension/language/languageServer.ts). The parser's
// bench runs the parser with the same flags.
//
// A parse allocates a tree that all survives: with V8's default young generation (semi-spaces of
// at most 16 MiB) every node is copied twice by the scavenger before it settles in the old
// generation. Semi-spaces that may grow to 64 MiB hold the tree of a model of up to ~100k lines,
// which is then never copied during its parse (twice as fast on one core), and a quarter of the
// scavenges for larger ones, which copy as much (no faster at 1M lines); see docs/sysml-front-end.md,
// Performance. The young generation only grows that large while a program allocates long-lived data
// that fast (V8 shrinks it again when allocation slows down): ~100 MiB more than the default at most.
// (These flags must be on the command line or in NODE_OPTIONS: `v8.setFlagsFromString` after
// start-up does not resize the heap.)
export const MODEL_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** `NODE_OPTIONS` for a child Node process that should run with `MODEL_NODE_FLAGS`, keeping the
 * options already given (those come after ours, so a user's own `--max-semi-space-size` wins). */
export function nodeOptionsWithModelFlags(existing: string | undefined = process.env.NODE_OPTIONS): string {
  const own = MODEL_NODE_FLAGS.join(' ');
  return existing && existing.trim() !== '' ? `${own} ${existing.trim()}` : own;
}
