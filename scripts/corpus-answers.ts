// The corpus measure of issue #15: every calc, constraint, requirement, analysis, action and state
// definition of the release's examples/, training/ and validation/ (../shared/corpus, read in place) is
// asked one fitting question through the reference engine's own entry points (covers, then run, as
// the host routes a question), and recorded as answered or refused with its reason.
//
//   npm run corpus-answers              # prints the share and the top refusal reasons, writes docs/corpus-answers.md
//   npm run corpus-answers -- --only Vehicle   # the definitions whose file path contains the text (no docs written)
//
// The question per kind is the one a modeller asks first:
// - calc, analysis: `evaluate <def>`, each `in` parameter of a scalar or ISQ quantity type bound to a
//   sample value (2, true, "a", 2 in the quantity's coherent SI unit), an untyped one (Anything) to 2;
// - constraint, requirement: `evaluate <def>`, the same bindings for its `in` parameters and its
//   attributes without a value (does it hold at that point?);
// - action, state: `outcomes <def> --free schedule,inputs` (every schedule and environment input).
// A parameter whose type has no sample (a part, an item) stays unbound: the engine says why it cannot answer.
// The model of a question: the definition's file, and the files of its folder that declare a top-level
// package the file imports or names and does not declare itself (see `modelFor`; one no file of the folder
// declares, from the file of its section, examples/ training/ validation/, that does), with the library.
//
//   npm run corpus-answers -- --json out.json   # also writes every question, its model and answer as JSON
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse, languageOfPath } from '../src/sysml';
import { parseQualifiedName, resolveDocuments } from '../src/sysml/names';
import type { Definition, Document, Expression, Member, Usage } from '../src/sysml';
import { kindExpressionUnit, quantityKindUnit, type Unit } from '../src/sysml/semantics/units';
import { ENGINE_QUESTIONS } from '../src/engine/questions';
import { coversQuestion, runQuestion } from '../src/engine/server';
import { EngineError, EMBEDDED_LIBRARY_VERSION, type RunParams, type Value } from '../src/protocol';

export const ROOT = resolve(__dirname, '..');
export const CORPUS = resolve(ROOT, '..', 'shared', 'corpus', 'sysml-release-2026-04');
export const FOLDERS = ['examples', 'training', 'validation'] as const;
const KINDS = ['calc', 'constraint', 'requirement', 'analysis', 'action', 'state'] as const;
type Kind = (typeof KINDS)[number];
/** Seconds per question, as `--deadline` gives it. */
const DEADLINE_S = 20;

export interface Asked {
  file: string;
  subject: string;
  kind: Kind;
  question: string;
  /** The other files of its folder the question was asked with (those declaring what the file imports or names). */
  models: string[];
  verdict: 'answered' | 'refused' | 'internal';
  /** The engine's claim when answered, its message when not. */
  text: string;
}

export function modelFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) modelFiles(path, out);
    else if (name.endsWith('.sysml')) out.push(path);
  }
  return out;
}

export const quote = (n: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) ? n : `'${n.replace(/'/g, "\\'")}'`);

/** The definitions of the six kinds, by qualified name, in packages and nested in each other. */
function subjects(members: readonly Member[] | null, prefix: string, out: { subject: string; def: Definition }[] = []): { subject: string; def: Definition }[] {
  for (const m of members ?? []) {
    if (m.kind === 'Package' && m.name) subjects(m.members, `${prefix}${quote(m.name)}::`, out);
    if (m.kind === 'Definition' && m.name) {
      if ((KINDS as readonly string[]).includes(m.keyword)) out.push({ subject: `${prefix}${quote(m.name)}`, def: m });
      subjects(m.body, `${prefix}${quote(m.name)}::`, out);
    }
  }
  return out;
}

function typeNameOf(u: Usage): string | undefined {
  const typing = u.relations.find((r) => r.relation === 'typing') ?? u.relations.find((r) => r.relation === 'subsetting' || r.relation === 'redefinition');
  if (!typing) return undefined;
  const t = typing.target;
  const q = t.kind === 'QualifiedName' ? t : t.chain[t.chain.length - 1];
  return q && 'segments' in q ? q.segments.join('::') : undefined;
}

/**
 * The definitions of a model by simple name, to follow a model's own `attribute def Weight :> Real`;
 * `units`: a unit the model declares for each of its unit types (`attribute mpg : DistancePerVolumeUnit
 * = 'mi' / gallon;` under DistancePerVolumeUnit), to give a value of its own quantity type.
 */
type Defs = Map<string, Definition> & { units?: Map<string, string>; kinds?: Map<string, Expression> };

function collectDefs(members: readonly Member[] | null, out: Defs): Defs {
  out.units ??= new Map();
  for (const m of members ?? []) {
    if (m.kind === 'Package') collectDefs(m.members, out);
    if (m.kind === 'Definition' && m.name) {
      if (!out.has(m.name)) out.set(m.name, m);
      collectDefs(m.body, out);
    }
    if (m.kind === 'Usage' && m.name && m.value !== null) {
      const type = typeNameOf(m)?.split('::').at(-1);
      if (type && /Unit$/.test(type) && !out.units.has(type)) out.units.set(type, m.shortName ?? m.name);
      // A quantity kind of the model's own (`attribute distancePerVolume : ScalarQuantityValue = length / volume;`).
      out.kinds ??= new Map();
      if ((type === undefined || ['ScalarQuantityValue', 'QuantityValue', 'scalarQuantities'].includes(type)) && !out.kinds.has(m.name)) out.kinds.set(m.name, m.value.expression);
    }
  }
  return out;
}

function refText(r: Definition['relations'][number]): string | undefined {
  const t = r.target;
  const q = t.kind === 'QualifiedName' ? t : t.chain[t.chain.length - 1];
  return q && 'segments' in q ? q.segments.join('::') : undefined;
}

/** A sample value for a feature of this type, or undefined when the type has none (a part, an item …). */
export function sample(typeName: string | undefined, defs: Defs = new Map(), depth = 0): Omit<Value, 'name'> | undefined {
  if (depth > 8) return undefined;
  // An untyped feature is typed Anything (KerML: every feature is typed, by Base::Anything at least): a number is one of its values.
  if (!typeName) return depth === 0 ? { value: 2 } : undefined;
  const simple = typeName.split('::').at(-1)!;
  if (['Integer', 'Natural', 'Positive', 'Real', 'Rational', 'Number', 'NumericalValue', 'DimensionOneValue'].includes(simple)) return { value: 2 };
  if (simple === 'Boolean') return { value: true };
  if (simple === 'String') return { value: 'a' };
  const unit = quantityKindUnit(typeName) ?? modelKind(simple, defs);
  if (unit) return { value: 2, unit: unit.name };
  const own = defs.get(simple);
  if (own?.keyword !== 'attribute') return undefined;
  // A quantity value type of the model's own (`:>> mRef : DistancePerVolumeUnit`): 2 in a unit the model declares of that type.
  for (const m of own.body ?? []) {
    if (m.kind !== 'Usage' || !(m.name === 'mRef' || m.relations.some((r) => r.relation === 'redefinition' && refText(r as never)?.split('::').at(-1) === 'mRef'))) continue;
    const unit = defs.units?.get(typeNameOf(m)?.split('::').at(-1) ?? '');
    if (unit) return { value: 2, unit };
  }
  const general = own.relations.find((r) => r.relation === 'specialization');
  return general ? sample(refText(general), defs, depth + 1) : undefined;
}

/** The coherent unit of a kind the model declares by an expression of the library's quantities. */
function modelKind(name: string, defs: Defs, seen = new Set<string>()): Unit | undefined {
  const e = defs.kinds?.get(name);
  if (!e || seen.has(name)) return undefined;
  seen.add(name);
  return kindExpressionUnit(e, (n) => quantityKindUnit(n.segments.at(-1)!) ?? modelKind(n.segments.at(-1)!, defs, seen));
}

const single = (u: Usage): boolean => u.multiplicity === null;

/** A definition's own body, then the bodies of the model's definitions it specializes (`:> MassLimitationRequirement`). */
function inheritedBody(def: Definition, defs: Defs, seen = new Set<Definition>()): Member[] {
  if (seen.has(def)) return [];
  seen.add(def);
  const out: Member[] = [...(def.body ?? [])];
  for (const r of def.relations) {
    if (r.relation !== 'specialization') continue;
    const general = defs.get(refText(r)?.split('::').at(-1) ?? '');
    if (general && general.keyword === def.keyword) out.push(...inheritedBody(general, defs, seen));
  }
  return out;
}

function bindingsOf(def: Definition, kind: Kind, defs: Defs): Value[] {
  const out: Value[] = [];
  // A feature redefined or valued in the definition itself is not bound again for its general's declaration.
  const own = new Set<string>();
  for (const m of def.body ?? []) {
    if (m.kind !== 'Usage') continue;
    if (m.name) own.add(m.name);
    for (const r of m.relations) if (r.relation === 'redefinition') own.add(refText(r as never)?.split('::').at(-1) ?? '');
  }
  for (const m of inheritedBody(def, defs)) {
    if (m.kind !== 'Usage' || !m.name || m.value !== null) continue;
    if (!(def.body ?? []).includes(m) && own.has(m.name)) continue;
    if (out.some((b) => b.name === m.name || b.name.startsWith(`${m.name}.`))) continue;
    // A subject typed by a quantity or scalar: a sample of it (`subject mass :> ISQ::mass`).
    if (m.role === 'subject' && sample(typeNameOf(m), defs, 1) !== undefined) {
      out.push({ name: m.name, ...sample(typeNameOf(m), defs, 1)! });
      continue;
    }
    // A subject (or an `in` parameter) typed by a structure: its attributes without a value, by dotted
    // name (`vehicle.mass`, `engine.displacement`).
    const structured = m.role === 'subject' || ((m.direction === 'in' || m.direction === 'inout') && sample(typeNameOf(m), defs) === undefined && defs.get(typeNameOf(m)?.split('::').at(-1) ?? '')?.keyword === 'part');
    if (structured) {
      const type = defs.get(typeNameOf(m)?.split('::').at(-1) ?? '');
      for (const a of type?.body ?? []) {
        if (a.kind !== 'Usage' || !a.name || a.value !== null || !single(a)) continue;
        // Attributes, and features declared without a keyword (`m;` or `mass : MassValue;`, read as a value).
        if (a.keyword !== 'attribute' && !(a.keyword === 'feature' || a.keyword === 'ref')) continue;
        const v = sample(typeNameOf(a), defs);
        if (v) out.push({ name: `${m.name}.${a.name}`, ...v });
      }
      continue;
    }
    const parameter = m.direction === 'in' || m.direction === 'inout';
    const attribute = (kind === 'constraint' || kind === 'requirement') && m.keyword === 'attribute' && m.direction === null;
    if (!parameter && !attribute) continue;
    const v = sample(typeNameOf(m), defs);
    if (v) out.push({ name: m.name, ...v });
  }
  return out;
}

function questionFor(subject: string, def: Definition, kind: Kind, defs: Defs): RunParams['question'] {
  if (kind === 'action' || kind === 'state') return { kind: 'outcomes', subject, schedule: 'fifo', free: ['schedule', 'inputs'] };
  const bindings = bindingsOf(def, kind, defs);
  return { kind: 'evaluate', subject, schedule: 'fifo', free: [], ...(bindings.length ? { bindings } : {}) };
}

function describe(q: RunParams['question']): string {
  const binds = (q.bindings ?? []).map((b) => ` --bind ${b.name}=${typeof b.value === 'string' ? JSON.stringify(b.value) : b.value}${b.unit ? `[${b.unit}]` : ''}`).join('');
  const free = q.free.length ? ` --free ${q.free.join(',')}` : '';
  return `${q.kind} ${q.subject}${free}${binds}`;
}

const noToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => {} }) };

async function askOne(documents: { path: string; text: string }[], question: RunParams['question']): Promise<Pick<Asked, 'verdict' | 'text'>> {
  const model = { sources: { library: EMBEDDED_LIBRARY_VERSION, documents } };
  try {
    const covers = coversQuestion(ENGINE_QUESTIONS, { question, model });
    if (!covers.covers) return { verdict: 'refused', text: `does not cover it: ${covers.reason ?? ''}` };
    const budget = { deadline: new Date(Date.now() + DEADLINE_S * 1000).toISOString() };
    const bounds = [{ name: 'steps', limit: 20000 }, { name: 'depth', limit: 200 }];
    const r = await runQuestion(ENGINE_QUESTIONS, { question, model, bounds, budget }, { token: noToken as never, progress: () => {} });
    return { verdict: 'answered', text: `${r.claim}${r.strength ? ` ${r.strength}` : ''}: ${r.reason ?? (r.values ?? []).map((v) => `${v.name} = ${v.value}${v.unit ? ` [${v.unit}]` : ''}`).join(', ')}` };
  } catch (e) {
    if (e instanceof EngineError && e.code !== 'internal') return { verdict: 'refused', text: `${e.code}: ${e.message}` };
    return { verdict: 'internal', text: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

/** A model file of a folder as the script reads it: its text, its tree, the names it declares at top level. */
export interface FolderFile {
  path: string;
  text: string;
  document: Document;
  /** The names it declares at top level (its packages, and any other named top-level element). */
  declares: Set<string>;
}

/** `text`: the file's contents (read from `path` when not given). */
export function readFolderFile(path: string, text = readFileSync(path, 'utf8')): FolderFile {
  const document = parse(text, { language: languageOfPath(path) }).document;
  const declares = new Set<string>();
  for (const m of document.members) {
    if (!('name' in m)) continue;
    if (m.name) declares.add(m.name);
    if ('shortName' in m && m.shortName) declares.add(m.shortName);
  }
  return { path, text, document, declares };
}

/** A package the model needed that several files of the folder declare: the script loads none of them. */
export interface Ambiguity {
  /** The asked file (in the report: relative to the corpus). */
  file: string;
  /** The package's name. */
  name: string;
  /** The files of the folder that declare it. */
  declaredIn: string[];
}

/**
 * The files a question about `file`'s definitions is asked of: the file itself, and the files of its
 * folder that declare a top-level package the model so far imports or names without resolving it (the
 * project's name resolution, against the built-in library, tells which), transitively. A package the
 * file declares itself is never taken from a sibling (three training folders hold two files that
 * declare the same package with different contents). A needed package that several files declare is
 * not chosen between: none of them is loaded, and the ambiguity is returned to be reported. A package
 * no file of the folder declares is taken from `section` (the files of the corpus section, training/ …)
 * by the same rule.
 */
export function modelFor(file: string, folder: readonly FolderFile[], section: readonly FolderFile[] = []): { files: FolderFile[]; ambiguities: Ambiguity[] } {
  const files = [folder.find((f) => f.path === file)!];
  const declared = new Set(files[0]!.declares);
  const ambiguities: Ambiguity[] = [];
  const reported = new Set<string>();
  for (let added = true; added; ) {
    added = false;
    const { index } = resolveDocuments(files.map((f) => ({ uri: f.path, document: f.document })));
    const unresolved = new Set<string>();
    for (const f of files) {
      for (const r of index.references(f.path)) {
        const first = r.targets.length === 0 ? parseQualifiedName(r.text)?.[0] : undefined;
        if (first !== undefined) unresolved.add(first);
      }
    }
    for (const name of [...unresolved].sort()) {
      if (declared.has(name) || reported.has(name)) continue;
      let providers = folder.filter((f) => !files.includes(f) && f.declares.has(name));
      // None in its folder: the files of the corpus section (training/ …) that declare it (a training
      // folder imports another's package: 'Analytical Constraints' imports 'Calculation Definitions').
      if (providers.length === 0 && !folder.some((f) => f.declares.has(name))) providers = section.filter((f) => !files.includes(f) && f.declares.has(name));
      if (providers.length === 1) {
        files.push(providers[0]!);
        for (const d of providers[0]!.declares) declared.add(d);
        added = true;
      } else if (providers.length > 1) {
        reported.add(name);
        ambiguities.push({ file, name, declaredIn: providers.map((f) => f.path) });
      }
    }
  }
  return { files, ambiguities };
}

/**
 * Each model file of the release's folders (those whose path contains `only`), with its model: the file
 * and the files of its folder that declare what it imports or names (examples import each other), a
 * package no file of the folder declares taken from its section; the library as always.
 */
export function* corpusModels(only?: string): Generator<{ rel: string; model: ReturnType<typeof modelFor> }> {
  for (const folder of FOLDERS) {
    const byDir = new Map<string, FolderFile[]>();
    let section: FolderFile[] | undefined;
    for (const file of modelFiles(join(CORPUS, folder))) {
      const rel = relative(CORPUS, file);
      if (only && !rel.includes(only)) continue;
      const dir = join(file, '..');
      if (!byDir.has(dir)) byDir.set(dir, readdirSync(dir).filter((n) => n.endsWith('.sysml')).sort().map((n) => readFolderFile(join(dir, n))));
      section ??= modelFiles(join(CORPUS, folder)).map((f) => readFolderFile(f));
      yield { rel, model: modelFor(file, byDir.get(dir)!, section) };
    }
  }
}

/**
 * Asks every definition; `only` keeps the files whose path contains it. `ambiguities` receives each
 * needed package that several files of a folder declare (none of them loaded).
 */
export async function measure(only?: string, ambiguities: Ambiguity[] = []): Promise<Asked[]> {
  const results: Asked[] = [];
  for (const { rel, model } of corpusModels(only)) {
    for (const a of model.ambiguities) ambiguities.push({ file: rel, name: a.name, declaredIn: a.declaredIn.map((p) => relative(CORPUS, p)) });
    const files = model.files;
    const documents = files.map((f) => ({ path: relative(CORPUS, f.path), text: f.text }));
    const defs = collectDefs(files[0]!.document.members, new Map());
    for (const f of files.slice(1)) collectDefs(f.document.members, defs);
    for (const { subject, def } of subjects(files[0]!.document.members, '')) {
      const kind = def.keyword as Kind;
      const question = questionFor(subject, def, kind, defs);
      const answer = await askOne(documents, question);
      results.push({ file: rel, subject, kind, question: describe(question), models: documents.slice(1).map((d) => d.path), ...answer });
    }
  }
  return results;
}

/** A refusal's reason with its particulars (places, names, numbers) taken out, to group them. */
export function reasonOf(text: string): string {
  return text
    .replace(/^(unsupported|budget|failed|error): /, '')
    .replace(/run unsupported: /, '')
    .replace(/(examples|training|validation)\/[^:]*\.sysml:\d+:\d+:?\s*/g, '')
    .replace(/'[^']*'/g, '…')
    .replace(/"[^"]*"/g, '…')
    .replace(/\b\d+(\.\d+)?\b/g, 'n')
    .replace(/^[A-Za-z_][\w…]*: (?=[a-z])/, '<name>: ')
    .slice(0, 140);
}

export function share(results: readonly Asked[]): number {
  return results.length === 0 ? 0 : results.filter((r) => r.verdict === 'answered').length / results.length;
}

export function topReasons(results: readonly Asked[], n = 15): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of results) if (r.verdict !== 'answered') counts.set(reasonOf(r.text), (counts.get(reasonOf(r.text)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
}

export function report(results: readonly Asked[], ambiguities: readonly Ambiguity[] = []): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines: string[] = [];
  lines.push('# Corpus answers', '');
  lines.push('Generated by `npm run corpus-answers` (scripts/corpus-answers.ts); `test/corpus/corpus-answers.test.ts`');
  lines.push('asks the same and fails on an internal error or when the share answered falls below its recorded floor.');
  lines.push('Every calc, constraint, requirement, analysis, action and state definition of the SysML v2 release');
  lines.push("(`../shared/corpus/sysml-release-2026-04/`: examples, training, validation) is asked one question through the");
  lines.push("reference engine's covers and run. The model: its file, and the files of its folder that declare a top-level");
  lines.push('package the file imports or names without declaring it itself (found by the name resolution of src/sysml,');
  lines.push("transitively; a package no file of its folder declares, from the one file of its section that does), with the library; a file that redeclares a sibling's package is asked alone, not with the sibling:", '');
  lines.push('| kind | question |', '|---|---|');
  lines.push('| calc, analysis | `evaluate <def>`, each `in` parameter of a scalar or ISQ quantity type bound to a sample (2, true, "a", 2 in the coherent SI unit) |');
  lines.push('| constraint, requirement | `evaluate <def>`, the same samples for its `in` parameters and its attributes without a value |');
  lines.push('| action, state | `outcomes <def> --free schedule,inputs` (steps ≤ 20000, depth ≤ 200) |', '');
  lines.push(`**Answered: ${results.filter((r) => r.verdict === 'answered').length} of ${results.length} (${pct(share(results))})**`, '');
  lines.push('| kind | definitions | answered | refused | internal error | share |', '|---|--:|--:|--:|--:|--:|');
  for (const k of KINDS) {
    const rs = results.filter((r) => r.kind === k);
    const c = (v: Asked['verdict']) => rs.filter((r) => r.verdict === v).length;
    lines.push(`| ${k} | ${rs.length} | ${c('answered')} | ${c('refused')} | ${c('internal')} | ${pct(share(rs))} |`);
  }
  lines.push('', '## Top refusal reasons', '', '| count | reason (names, places and numbers elided) |', '|--:|---|');
  for (const [reason, n] of topReasons(results, 25)) lines.push(`| ${n} | ${reason.replace(/\|/g, '\\|')} |`);
  lines.push('', '## Models of more than one file', '', '| file | asked with |', '|---|---|');
  const withOthers = new Map<string, string[]>();
  for (const r of results) if (r.models.length > 0) withOthers.set(r.file, r.models);
  for (const [file, models] of withOthers) lines.push(`| ${file} | ${models.join(', ')} |`);
  lines.push('', '## Needed packages declared by several files', '');
  if (ambiguities.length === 0) lines.push('None: every package a file needs from its folder is declared by one file there.');
  else {
    lines.push('None of the declaring files is loaded; the questions of the file are asked without them.', '', '| file | package | declared in |', '|---|---|---|');
    for (const a of ambiguities) lines.push(`| ${a.file} | ${quote(a.name)} | ${a.declaredIn.join(', ')} |`);
  }
  lines.push('', '## Every question', '', '| file | subject | question | verdict | answer or reason |', '|---|---|---|---|---|');
  const cell = (s: string) => s.replace(/\n[\s\S]*/, '').replace(/\|/g, '\\|').slice(0, 220);
  for (const r of results) lines.push(`| ${cell(r.file)} | ${cell(r.subject)} | \`${cell(r.question)}\` | ${r.verdict} | ${cell(r.text)} |`);
  return lines.join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--only');
  const only = at >= 0 ? argv[at + 1] : undefined;
  const ambiguities: Ambiguity[] = [];
  const results = await measure(only, ambiguities);
  const answered = results.filter((r) => r.verdict === 'answered').length;
  process.stdout.write(`Corpus answers: ${answered} of ${results.length} answered (${(100 * share(results)).toFixed(1)}%)\n`);
  for (const k of KINDS) {
    const rs = results.filter((r) => r.kind === k);
    process.stdout.write(`  ${k.padEnd(12)} ${String(rs.filter((r) => r.verdict === 'answered').length).padStart(4)} / ${rs.length}\n`);
  }
  process.stdout.write('Top refusal reasons:\n');
  for (const [reason, n] of topReasons(results)) process.stdout.write(`  ${String(n).padStart(4)}  ${reason}\n`);
  for (const a of ambiguities) process.stdout.write(`AMBIGUOUS ${a.file} needs ${quote(a.name)}, declared in ${a.declaredIn.join(' and ')}: none of them loaded\n`);
  const internal = results.filter((r) => r.verdict === 'internal');
  for (const r of internal) process.stdout.write(`INTERNAL ERROR ${r.file} ${r.subject}: ${r.text}\n`);
  if (argv.includes('--verbose')) for (const r of results) process.stdout.write(`${r.verdict.padEnd(9)} ${r.question}  →  ${r.text.split('\n')[0]}\n`);
  const json = argv.indexOf('--json');
  if (json >= 0) writeFileSync(argv[json + 1]!, JSON.stringify({ results, ambiguities }, null, 1) + '\n');
  if (!only) writeFileSync(join(ROOT, 'docs', 'corpus-answers.md'), report(results, ambiguities));
  return internal.length > 0 ? 1 : 0;
}

/** Runs a corpus script's `main` with the command line: its exit code, or 2 with the error's stack. */
export function runScript(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(2);
    },
  );
}

if (require.main === module) runScript(main);
