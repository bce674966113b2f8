// The structure measure: `evaluate` of every part definition and every part usage declared directly in
// a package, of the release's examples/, training/ and validation/ (../shared/corpus, read in place),
// with no bindings, through the reference engine's own entry points (covers, then run), as
// scripts/corpus-answers.ts asks its behaviours and calcs. The model of a file is the one
// corpus-answers builds (`modelFor`: the file and the files of its folder it needs, with the library).
//
//   npx tsx scripts/corpus-parts.ts                  # the share answered and the top refusal reasons
//   npx tsx scripts/corpus-parts.ts --only Vehicle   # the files whose path contains the text
//   npx tsx scripts/corpus-parts.ts --json out.json  # also every question and its answer
//   npx tsx scripts/corpus-parts.ts --verbose        # one line per question
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Member } from '../src/sysml';
import { ENGINE_QUESTIONS } from '../src/engine/questions';
import { coversQuestion, runQuestion } from '../src/engine/server';
import { EngineError, EMBEDDED_LIBRARY_VERSION, type RunParams } from '../src/protocol';
import { CORPUS, corpusModels, quote, reasonOf, runScript } from './corpus-answers';

const DEADLINE_S = 20;

interface PartAsked {
  file: string;
  subject: string;
  /** `part def` or `part` (a package-level usage). */
  kind: 'definition' | 'usage';
  verdict: 'answered' | 'refused' | 'internal';
  text: string;
}

/** Part definitions (in packages and nested in definitions) and part usages owned by a package. */
function parts(members: readonly Member[] | null, prefix: string, inPackage: boolean, out: { subject: string; kind: PartAsked['kind'] }[] = []): typeof out {
  for (const m of members ?? []) {
    if (m.kind === 'Package' && m.name) parts(m.members, `${prefix}${quote(m.name)}::`, true, out);
    if (m.kind === 'Definition' && m.name) {
      if (m.keyword === 'part') out.push({ subject: `${prefix}${quote(m.name)}`, kind: 'definition' });
      parts(m.body, `${prefix}${quote(m.name)}::`, false, out);
    }
    if (inPackage && m.kind === 'Usage' && m.name && m.keyword === 'part') out.push({ subject: `${prefix}${quote(m.name)}`, kind: 'usage' });
  }
  return out;
}

const noToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => {} }) };

async function askOne(documents: { path: string; text: string }[], subject: string): Promise<Pick<PartAsked, 'verdict' | 'text'>> {
  const question: RunParams['question'] = { kind: 'evaluate', subject, schedule: 'fifo', free: [] };
  const model = { sources: { library: EMBEDDED_LIBRARY_VERSION, documents } };
  try {
    const covers = coversQuestion(ENGINE_QUESTIONS, { question, model });
    if (!covers.covers) return { verdict: 'refused', text: `does not cover it: ${covers.reason ?? ''}` };
    const budget = { deadline: new Date(Date.now() + DEADLINE_S * 1000).toISOString() };
    const r = await runQuestion(ENGINE_QUESTIONS, { question, model, bounds: [], budget }, { token: noToken as never, progress: () => {} });
    const values = (r.values ?? []).map((v) => `${v.name} = ${v.value}${v.unit ? ` [${v.unit}]` : ''}`).join(', ');
    return { verdict: 'answered', text: `${r.claim}${r.strength ? ` ${r.strength}` : ''}: ${r.reason ?? ''}${r.reason && values ? '; ' : ''}${values}` };
  } catch (e) {
    if (e instanceof EngineError && e.code !== 'internal') return { verdict: 'refused', text: `${e.code}: ${e.message}` };
    return { verdict: 'internal', text: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

async function measure(only?: string): Promise<PartAsked[]> {
  const results: PartAsked[] = [];
  for (const { rel, model } of corpusModels(only)) {
    const files = model.files;
    const documents = files.map((f) => ({ path: relative(CORPUS, f.path), text: f.text }));
    for (const { subject, kind } of parts(files[0]!.document.members, '', false)) {
      results.push({ file: rel, subject, kind, ...(await askOne(documents, subject)) });
    }
  }
  return results;
}

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--only');
  const results = await measure(at >= 0 ? argv[at + 1] : undefined);
  const answered = (rs: PartAsked[]) => rs.filter((r) => r.verdict === 'answered').length;
  process.stdout.write(`Corpus parts: ${answered(results)} of ${results.length} answered\n`);
  for (const k of ['definition', 'usage'] as const) {
    const rs = results.filter((r) => r.kind === k);
    process.stdout.write(`  part ${k.padEnd(11)} ${String(answered(rs)).padStart(4)} / ${rs.length}\n`);
  }
  const counts = new Map<string, number>();
  for (const r of results) if (r.verdict !== 'answered') counts.set(reasonOf(r.text), (counts.get(reasonOf(r.text)) ?? 0) + 1);
  process.stdout.write('Top refusal reasons:\n');
  for (const [reason, n] of [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 25)) process.stdout.write(`  ${String(n).padStart(4)}  ${reason}\n`);
  const internal = results.filter((r) => r.verdict === 'internal');
  for (const r of internal) process.stdout.write(`INTERNAL ERROR ${r.file} ${r.subject}: ${r.text}\n`);
  if (argv.includes('--verbose')) for (const r of results) process.stdout.write(`${r.verdict.padEnd(9)} ${r.file} ${r.subject}  →  ${r.text.split('\n')[0]}\n`);
  const json = argv.indexOf('--json');
  if (json >= 0) writeFileSync(argv[json + 1]!, JSON.stringify({ results }, null, 1) + '\n');
  return internal.length > 0 ? 1 : 0;
}

if (require.main === module) runScript(main);
