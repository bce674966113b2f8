// Conformance harness over OpenSysML's execution conformance cases (../shared/conformance/opensysml,
// read in place, never copied). For each case it asks `assay` (the real CLI, dist/cli.js, --json) the
// question the case's expected.json implies, and classifies the case: pass / wrong / refused /
// syntax error / not askable. "wrong" is the one that matters: assay answered (exit 0) something that
// contradicts the expectation, at any strength. Where the peer's expectation contradicts the SysML v2 /
// KerML specification, SPEC_CONTRADICTIONS replaces it with the spec-correct one, case by case.
//
//   npm run conformance [-- --json] [-- --only <substring>] [-- --jobs <n>]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { parse, walk } from '../../src/sysml';
import type { Definition, Member, Node, Usage } from '../../src/sysml';
import { SPEC_CONTRADICTIONS, boundThenAssigned, boundThenAssignedContradiction, type SpecContradiction } from './spec-contradictions';

export const ROOT = resolve(__dirname, '..', '..');
export const SUITE_DIR = resolve(ROOT, '..', 'shared', 'conformance', 'opensysml');
export const CLI = join(ROOT, 'dist', 'cli.js');
/** Seconds each question may take (`--deadline`). */
export const DEADLINE = 20;

// ---------------------------------------------------------------------------------------------
// The expected.json schema (README.upstream.md). Strict, so a field the harness does not know about
// is reported rather than silently not checked.

const TypedValue: z.ZodType<TypedValue> = z.lazy(() =>
  z.strictObject({
    type: z.enum(['Integer', 'Real', 'Boolean', 'String', 'Null', 'Quantity', 'Sequence', 'Instance', 'Unset', 'Variant', 'EnumLiteral']).optional(),
    value: z.union([z.number(), z.string(), z.boolean(), z.null()]).optional(),
    unit: z.string().optional(),
    elements: z.array(TypedValue).optional(),
    error: z.string().optional(),
  }),
);
export interface TypedValue {
  type?: 'Integer' | 'Real' | 'Boolean' | 'String' | 'Null' | 'Quantity' | 'Sequence' | 'Instance' | 'Unset' | 'Variant' | 'EnumLiteral' | undefined;
  value?: number | string | boolean | null | undefined;
  unit?: string | undefined;
  elements?: TypedValue[] | undefined;
  error?: string | undefined;
}
const Event = z.strictObject({ signal: z.string().optional(), call: z.string().optional(), args: z.record(z.string(), TypedValue).nullable().optional() });
const StateExpectation = {
  events: z.array(Event).optional(),
  finalState: z.string().optional(),
  stateVisits: z.array(z.string()).optional(),
  outputs: z.record(z.string(), TypedValue).optional(),
};
export const Expected = z.strictObject({
  type: z.enum(['action', 'state', 'calc', 'calcUsage', 'constraint', 'requirement', 'satisfy', 'instance']),
  evaluate: z.string().optional(),
  instantiate: z.string().optional(),
  libraries: z.boolean().optional(),
  trace: z.boolean().optional(),
  diagnostics: z.array(z.string()).optional(),
  error: z.string().optional(),
  inputs: z.array(TypedValue).optional(),
  result: TypedValue.optional(),
  tokenCount: z.number().optional(),
  bindings: z.record(z.string(), TypedValue).optional(),
  satisfied: z.boolean().optional(),
  assertions: z.record(z.string(), z.boolean()).optional(),
  slots: z.record(z.string(), TypedValue).optional(),
  constraints: z.record(z.string(), z.boolean()).optional(),
  identical: z.array(z.array(z.string())).optional(),
  reads: z.record(z.string(), TypedValue).optional(),
  performers: z.array(z.strictObject({ object: z.string(), ...StateExpectation })).optional(),
  objects: z.array(z.strictObject({ instance: z.number().optional(), slots: z.record(z.string(), TypedValue).optional(), ...StateExpectation })).optional(),
  ...StateExpectation,
});
export type Expected = z.infer<typeof Expected>;

// ---------------------------------------------------------------------------------------------
// OpenSysML's own notation (outside the SysML v2 grammar). A case using any of these is scored in the
// "nonstandard" section. Each pattern is matched per line, comments removed.

export const NOTATION: readonly { name: string; pattern: RegExp }[] = [
  { name: '`done X;` marker', pattern: /^\s*done\s+[\w']+\s*;/ },
  { name: '`initial X;` / `final X;` marker', pattern: /^\s*(initial|final)\s+[\w']+\s*;/ },
  { name: '`then A B;` succession', pattern: /^\s*then\s+[\w']+\s+[\w']+\s*(if\b[^;]*)?;/ },
  { name: '`A then B;` succession', pattern: /^\s*(?!first\b|entry\b|else\b|then\b)[\w']+\s+then\s+[\w']+\s*;/ },
  { name: '`return <expr>;` statement', pattern: /^\s*return\s+(?!:)(?![\w']+\s*(:|=|;|\[|\{))/ },
  { name: '`assert/assume/require <expr>;` statement', pattern: /^\s*(assert|assume|require)\s+(?!(constraint|not|satisfy|requirement)\b)(?![\w']+(::[\w']+)*\s*(;|:(?!:)|\{|:>))/ },
  { name: '`assert/assume/require <expr>;` statement', pattern: /^\s*(assert|assume|require)\s+(not\s+)?(true|false|\d|\(|-)/ },
  { name: '`entry/exit/do { … }` block', pattern: /\b(entry|exit|do)\s*\{/ },
  { name: '`transition X to Y`', pattern: /\btransition\s+[\w']+\s+to\s+/ },
  { name: '`region`', pattern: /^\s*region\b/ },
  { name: 'pseudostate (`junction`, `choice`, `history`)', pattern: /^\s*((deep|shallow)\s+)?(junction|choice|history)\s+[\w']+\s*;/ },
  { name: 'reserved word as a name (`decide`, `first`, …)', pattern: /\b(action|state)\s+(decide|first|then|merge|fork|join|done)\s*[;{:]/ },
];

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
}

/** A `return` member inside an `if`/`while`/`loop`/`for` body or an action usage's body: the BNF
 * has ReturnParameterMember only in CalculationBodyItem, never in ActionBodyItem (the project's
 * parser is lenient and accepts it). */
function returnInActionBody(source: string): boolean {
  let found = false;
  const { document } = parse(source);
  const inside = (node: Node, depth: number): void => {
    walk(node, (n) => {
      if (found) return false;
      if (depth > 0 && n.kind === 'Usage' && n.role === 'return') found = true;
      const control = n.kind === 'IfAction' || n.kind === 'LoopAction' || n.kind === 'ForAction' || (n.kind === 'Usage' && n.keyword === 'action' && n !== node);
      if (control && depth === 0) {
        inside(n, 1);
        return false;
      }
      return true;
    });
  };
  inside(document as unknown as Node, 0);
  return found;
}

/** `x = e;` written for a feature `x` declared elsewhere in the model: OpenSysML's assignment. In
 * SysML v2 it declares a new reference feature `x` (ActionBodyItem → NonBehaviorBodyItem →
 * UsageMember → DefaultReferenceUsage) in the body it is written in, and assigns nothing. */
function featureRedeclaredAsAssignment(text: string): boolean {
  const lines = text.split('\n');
  for (const l of lines) {
    const m = /^\s*([A-Za-z_][\w]*)\s*=(?!=)[^;]*;/.exec(l);
    if (!m) continue;
    const declared = new RegExp(`\\b(attribute|in|out|inout|ref|part|item)\\s+${m[1]}\\b`);
    if (lines.some((other) => other !== l && declared.test(other))) return true;
  }
  return false;
}

export function notationOf(source: string): string[] {
  const text = stripComments(source);
  const lines = text.split('\n');
  const found = NOTATION.filter((n) => lines.some((l) => n.pattern.test(l))).map((n) => n.name);
  if (featureRedeclaredAsAssignment(text)) found.push('`x = e;` as assignment');
  if (returnInActionBody(source)) found.push('`return` inside an action/control body');
  return found;
}

// ---------------------------------------------------------------------------------------------
// Cases

export interface Case {
  name: string;
  file: string;
  source: string;
  expected: Expected;
  /** What the suite expects, before any spec correction. */
  upstream: Expected;
  spec: SpecContradiction | undefined;
  syntaxErrors: string[];
  notation: string[];
  standard: boolean;
}

/** Case types whose model runs assignments (where a feature bound with `=` may also be assigned). */
const BEHAVIOUR_TYPES = new Set(['action', 'state', 'calc', 'calcUsage']);

export function loadCases(dir = SUITE_DIR, only?: string): Case[] {
  if (!existsSync(dir)) throw new Error(`${dir}: the conformance suite is not there (expected ../shared/conformance/opensysml beside the repo)`);
  const cases: Case[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.expected.json')).sort()) {
    const name = f.slice(0, -'.expected.json'.length);
    if (only && !name.includes(only)) continue;
    const file = join(dir, `${name}.sysml`);
    const parsed = Expected.safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
    if (!parsed.success) throw new Error(`${join(dir, f)}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const source = readFileSync(file, 'utf8');
    const { document, errors } = parse(source);
    const syntaxErrors = errors.map((e) => `${e.range.line}:${e.range.column}: ${e.message}`);
    const notation = notationOf(source);
    const bound = BEHAVIOUR_TYPES.has(parsed.data.type) && parsed.data.error === undefined ? boundThenAssigned(document) : [];
    const spec = SPEC_CONTRADICTIONS[name] ?? (bound.length > 0 ? boundThenAssignedContradiction(bound) : undefined);
    const expected = spec?.expect ? Expected.parse({ ...parsed.data, ...spec.expect }) : parsed.data;
    cases.push({ name, file, source, expected, upstream: parsed.data, spec, syntaxErrors, notation, standard: notation.length === 0 });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Asking assay

export interface Answer {
  code: number;
  json: any;
  stderr: string;
}

export function ask(args: string[]): Promise<Answer> {
  return new Promise((resolveAnswer) => {
    const child = spawn(process.execPath, [CLI, ...args, '--json', '--deadline', String(DEADLINE)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = { error: { message: `not one JSON object on stdout: ${stdout.slice(0, 200)}`, status: 'error' } };
      }
      resolveAnswer({ code: code ?? -1, json, stderr });
    });
  });
}

/** The refusal (or failure) text of an answer that is not exit 0, without file paths. */
function refusalOf(a: Answer): string {
  const status = a.json?.error?.status ?? `exit ${a.code}`;
  const reasons: { reason: string }[] | undefined = a.json?.error?.reasons;
  const text = reasons && reasons.length > 0 ? reasons.map((r) => r.reason).join('; ') : (a.json?.error?.message ?? a.stderr.trim());
  return `${status}: ${String(text).replace(/\S*\/opensysml\//g, '')}`;
}

// ---------------------------------------------------------------------------------------------
// Checks: one expectation against one answer

export type CheckVerdict = 'agree' | 'disagree' | 'refused' | 'not askable';
export interface Check {
  what: string;
  question: string;
  expected: string;
  answered: string;
  verdict: CheckVerdict;
}

/** An Instance, or a sequence of Instances: the case pins object identity (and count), no value. */
function identityOnly(v: TypedValue): boolean {
  return v.type === 'Instance' || (v.type === 'Sequence' && (v.elements ?? []).length > 0 && (v.elements ?? []).every((e) => e.type === 'Instance'));
}

function show(v: TypedValue): string {
  if (v.error !== undefined) return `error "${v.error}"`;
  if (v.type === 'Sequence') return `(${(v.elements ?? []).map(show).join(', ')})`;
  if (v.type === 'Instance' || v.type === 'Unset') return v.type;
  const base = typeof v.value === 'string' && v.type === 'String' ? JSON.stringify(v.value) : String(v.value);
  return v.unit ? `${base} [${v.unit}]` : base;
}

interface Got {
  value: unknown;
  unit?: string | undefined;
}
function showGot(g: Got | undefined): string {
  if (!g) return '(not reported)';
  const base = typeof g.value === 'string' ? g.value : JSON.stringify(g.value);
  return g.unit ? `${base} [${g.unit}]` : base;
}

// Factors to SI for the units the suite's quantities use, to compare magnitudes written in other units.
const UNIT_SI: Record<string, number> = {
  m: 1, km: 1000, cm: 0.01, mm: 0.001, s: 1, min: 60, h: 3600, kg: 1, g: 0.001, t: 1000, 'm/s': 1, 'km/h': 1000 / 3600,
  N: 1, kN: 1000, J: 1, kJ: 1000, W: 1, kW: 1000, 'm/s^2': 1, A: 1, V: 1, K: 1, Pa: 1, kPa: 1000,
};

function near(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** Splits sequence notation `(1, 2, "a")` at top-level commas. */
function splitSequence(text: string): string[] | undefined {
  const t = text.trim();
  if (!t.startsWith('(') || !t.endsWith(')')) return undefined;
  const inner = t.slice(1, -1).trim();
  if (inner === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"') quoted = !quoted;
    if (quoted) continue;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts;
}

function scalarOfNotation(text: string): Got {
  const q = /^"(.*)"$/.exec(text);
  if (q) return { value: q[1] };
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  const n = /^([+-]?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)\s*(?:\[\s*([^\]]+)\s*\])?$/.exec(text);
  if (n) return { value: Number(n[1]), unit: n[2] };
  return { value: text };
}

/** Does an answered value agree with an expected one? Returns the disagreement, or null. */
export function disagreement(exp: TypedValue, got: Got): string | null {
  const g = got.value;
  switch (exp.type) {
    case 'Integer':
    case 'Real': {
      const n = asNumber(g);
      if (n === undefined) return `expected a number, got ${showGot(got)}`;
      if (exp.type === 'Integer' && !Number.isInteger(n)) return `expected an Integer, got ${n}`;
      return near(n, Number(exp.value)) ? null : 'different value';
    }
    case 'Boolean':
      return g === exp.value ? null : 'different value';
    case 'String':
      return g === exp.value ? null : 'different value';
    case 'Null':
      return g === null || g === 'null' || g === '()' ? null : 'expected no value (null)';
    case 'Variant':
    case 'EnumLiteral': {
      if (typeof g !== 'string') return 'expected a name';
      const last = (s: string) => s.split('::').pop();
      return g === exp.value || last(g) === last(String(exp.value)) ? null : 'different literal';
    }
    case 'Quantity': {
      const n = asNumber(g);
      if (n === undefined) return `expected a quantity, got ${showGot(got)}`;
      const eu = exp.unit ?? '';
      const gu = got.unit ?? '';
      if (eu === gu) return near(n, Number(exp.value)) ? null : 'different magnitude';
      const fe = UNIT_SI[eu];
      const fg = UNIT_SI[gu];
      if (fe === undefined || fg === undefined) return `unit ${gu || '(none)'} cannot be compared with ${eu || '(none)'}`;
      return near(n * fg, Number(exp.value) * fe) ? null : 'different magnitude';
    }
    case 'Sequence': {
      const elements = exp.elements ?? [];
      const parts = typeof g === 'string' ? splitSequence(g) : undefined;
      const gotElements: Got[] = parts ? parts.map(scalarOfNotation) : [got];
      if (gotElements.length !== elements.length) return `expected ${elements.length} element(s), got ${gotElements.length}`;
      for (let i = 0; i < elements.length; i++) {
        const d = disagreement(elements[i]!, gotElements[i]!);
        if (d) return `element ${i + 1}: ${d}`;
      }
      return null;
    }
    case 'Unset':
      return 'expected no value (Unset), got one';
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the model: subjects and calc parameters (the project's own parser)

type Named = Definition | Usage;
function bodyOf(m: Member): Member[] {
  if (m.kind === 'Package') return m.members ?? [];
  if (m.kind === 'Definition' || m.kind === 'Usage') return m.body ?? [];
  return [];
}
function isNamed(m: Member): m is Named {
  return m.kind === 'Definition' || m.kind === 'Usage';
}

/** The first element of `kinds` declared by the document's packages (not nested deeper), as the
 * suite's own harness finds it, with its qualified name. */
function firstDeclared(source: string, kinds: readonly string[]): { element: Named; path: string } | undefined {
  const { document } = parse(source);
  const visit = (members: Member[], prefix: string): { element: Named; path: string } | undefined => {
    for (const m of members) {
      if (m.kind === 'Package' && m.name) {
        const found = visit(m.members ?? [], `${prefix}${m.name}::`);
        if (found) return found;
      } else if (isNamed(m) && m.name && kinds.includes(m.keyword)) {
        return { element: m, path: `${prefix}${m.name}` };
      }
    }
    return undefined;
  };
  return visit(document.members, '');
}

function findPath(source: string, path: string): Named | undefined {
  const { document } = parse(source);
  let members = document.members;
  let found: Member | undefined;
  for (const segment of path.split('::')) {
    found = members.find((m) => (m.kind === 'Package' || isNamed(m)) && (m as { name: string | null }).name === segment);
    if (!found) return undefined;
    members = bodyOf(found);
  }
  return found && isNamed(found) ? found : undefined;
}

function findByName(source: string, name: string): Named | undefined {
  const { document } = parse(source);
  const visit = (members: Member[]): Named | undefined => {
    for (const m of members) {
      if (isNamed(m) && m.name === name) return m;
      const inner = visit(bodyOf(m));
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(document.members);
}

function refName(r: { target: any }): string | undefined {
  const t = r.target;
  const q = t.kind === 'QualifiedName' ? t : t.chain?.[t.chain.length - 1];
  return q?.segments?.[q.segments.length - 1];
}

/** The path (`test::top::mid::leaf`) from the object `root` to the first part, breadth first, whose
 * type is the definition `owner` (by name) or specializes it: a part's type is its own typing, or, for a
 * redefinition, the redefined part's; its parts are those of its types, overridden by its own body. */
export function objectPathTo(source: string, root: string, owner: string): string | undefined {
  const ownerName = owner.split('::').pop()!;
  const start = findPath(source, root);
  if (!start) return undefined;
  const defsOf = (names: string[]): Named[] => names.map((n) => findByName(source, n)).filter((d): d is Named => d !== undefined && d.kind === 'Definition');
  const specializes = (name: string, seen = new Set<string>()): boolean => {
    if (name === ownerName) return true;
    if (seen.has(name)) return false;
    seen.add(name);
    return defsOf([name]).some((d) => d.relations.filter((r) => r.relation === 'specialization').some((r) => specializes(refName(r) ?? '', seen)));
  };
  const typeNames = (e: Named): string[] => e.relations.filter((r) => r.relation === 'typing' || r.relation === 'specialization').map(refName).filter((n): n is string => n !== undefined);
  const allTypes = (names: string[], seen = new Set<string>()): string[] => {
    for (const n of names) {
      if (seen.has(n)) continue;
      seen.add(n);
      for (const d of defsOf([n])) allTypes(typeNames(d), seen);
    }
    return [...seen];
  };
  // Parts of an element with the types of each: inherited through its types, then its own body.
  const partsOf = (own: Named, types: string[]): Map<string, string[]> => {
    const parts = new Map<string, string[]>();
    const add = (m: Member) => {
      if (m.kind !== 'Usage' || m.keyword !== 'part') return;
      const redefined = m.relations.find((r) => r.relation === 'redefinition');
      const name = m.name ?? (redefined ? refName(redefined) : undefined);
      if (!name) return;
      parts.set(name, [...(parts.get(name) ?? []), ...typeNames(m)]);
    };
    for (const d of defsOf(allTypes(types))) for (const m of d.body ?? []) add(m);
    for (const m of own.body ?? []) add(m);
    return parts;
  };
  const queue: { path: string; element: Named; types: string[] }[] = [{ path: root, element: start, types: typeNames(start) }];
  for (let i = 0; i < queue.length && i < 200; i++) {
    const { path, element, types } = queue[i]!;
    for (const [name, partTypes] of partsOf(element, types)) {
      if (allTypes(partTypes).some((t) => specializes(t))) return `${path}::${name}`;
      // The part's own body, when it declares one, is found by name among the element's members.
      const own = (element.body ?? []).find((m): m is Usage => m.kind === 'Usage' && (m.name === name || m.relations.some((r) => r.relation === 'redefinition' && refName(r) === name)));
      queue.push({ path: `${path}::${name}`, element: own ?? ({ ...element, body: [], relations: [] } as unknown as Named), types: partTypes });
    }
  }
  return undefined;
}

/** The `in` parameters of a calc, inherited ones first at the position their declaring calc gives
 * them, a redefinition taking the place of the parameter it redefines (README.upstream.md). */
export function inParameters(source: string, calc: Named, seen = new Set<Named>()): string[] {
  if (seen.has(calc)) return [];
  seen.add(calc);
  const params: string[] = [];
  for (const r of calc.relations) {
    if (r.relation !== 'typing' && r.relation !== 'specialization' && r.relation !== 'subsetting') continue;
    const name = refName(r);
    const sup = name ? findByName(source, name) : undefined;
    if (sup && sup.keyword === 'calc') for (const p of inParameters(source, sup, seen)) if (!params.includes(p)) params.push(p);
  }
  for (const m of calc.body ?? []) {
    if (m.kind !== 'Usage' || m.direction !== 'in') continue;
    const redefined = m.relations.find((r) => r.relation === 'redefinition');
    const redefName = redefined ? refName(redefined) : undefined;
    const name = m.name ?? redefName;
    if (!name) continue;
    if (redefName && params.includes(redefName)) params[params.indexOf(redefName)] = name;
    else if (!params.includes(name)) params.push(name);
  }
  return params;
}

/** `--bind` text of a value, or why it cannot be one. */
function bindText(v: TypedValue): string | { notAskable: string } {
  switch (v.type) {
    case 'Integer':
      return String(v.value);
    case 'Real':
      return Number.isInteger(v.value) ? Number(v.value).toFixed(1) : String(v.value);
    case 'Boolean':
      return String(v.value);
    case 'String':
      return JSON.stringify(v.value);
    case 'Quantity':
      return `${v.value}[${v.unit}]`;
    default:
      return { notAskable: `--bind cannot carry a ${v.type ?? 'untyped'} value (${show(v)})` };
  }
}

// ---------------------------------------------------------------------------------------------
// Questions per case type

function rel(file: string): string {
  return relative(ROOT, file);
}
function questionText(args: string[]): string {
  return `assay ${args.map((a) => (/[\s"]/.test(a) ? `'${a}'` : a)).join(' ')}`;
}

interface Asked {
  args: string[];
  answer: Answer;
}
async function asked(args: string[]): Promise<Asked> {
  return { args, answer: await ask(args) };
}

/** A check of an expected error: assay must not answer a value. */
function errorCheck(what: string, q: Asked, expectedError: string): Check {
  const question = questionText(q.args);
  if (q.answer.code === 0) {
    return { what, question, expected: `error "${expectedError}"`, answered: answerSummary(q.answer), verdict: 'disagree' };
  }
  const reason = refusalOf(q.answer);
  const matches = reason.toLowerCase().includes(expectedError.toLowerCase());
  // A refusal before the run (`covers`: syntax error, construct not taken, subject kind) says nothing
  // about the model's error; one from the run (or a failure or budget) is assay meeting it.
  const atRun = !/does not cover it|does not take|^usage/.test(reason) || (expectedError.startsWith('syntax error') && /expected|syntax|unexpected/i.test(reason));
  // A run-time refusal naming what assay lacks (a library function or name it does not know, a
  // question shape it does not take) is a gap of assay, not the model's error.
  const gap = /unknown calc or function|is a structured value|is not supported|unknown name '[\w']+::/.test(reason);
  return { what, question, expected: `error "${expectedError}"`, answered: `${reason}${matches ? ' (text matches)' : ' (text differs)'}`, verdict: atRun && !gap ? 'agree' : 'refused' };
}

function answerSummary(a: Answer): string {
  const r = a.json?.result;
  if (!r) return `exit ${a.code}`;
  const values = (r.values ?? []).map((v: any) => `${v.name}=${showGot(v)}`).join(', ');
  return `${r.claim} ${r.strength}${values ? `: ${values}` : ''}`;
}

/** An Instance, or a sequence of Instances (none included): the slot holds parts, whose count is what it pins. */
function partsOnly(v: TypedValue): boolean {
  return v.type === 'Instance' || (v.type === 'Sequence' && (v.elements ?? []).every((e) => e.type === 'Instance'));
}

const STRUCTURE_KINDS = new Set(['part', 'item', 'occurrence', 'port']);

/**
 * A slot that holds parts, against assay's evaluate of it: a structure usage's answer lists one part as
 * itself and several (or none) with `count` first. An Instance agrees with one part listed; a sequence of
 * n Instances with `count = n`. Which objects they are (identity) is not compared: assay names none.
 */
function partsCheck(what: string, q: Asked, exp: TypedValue): Check {
  const question = questionText(q.args);
  const expected = show(exp);
  if (q.answer.code !== 0) return { what, question, expected, answered: refusalOf(q.answer), verdict: 'refused' };
  const json = q.answer.json;
  const r = json.result;
  if (r.claim !== 'value' || !STRUCTURE_KINDS.has(json.question?.subjectKind)) return { what, question, expected, answered: answerSummary(q.answer), verdict: 'refused' };
  // Several parts are answered as "<name>: n parts (…)" with `count = n` first; one part as its values
  // (which may hold an attribute named count, so the reason decides).
  const several = /^[^:]*: (\d+) parts?\b/.exec(String(r.reason ?? ''));
  const count = (r.values ?? [])[0];
  const held = several ? Number(several[1]) : 1;
  if (several && !(count?.name === 'count' && Number(count.value) === held)) return { what, question, expected, answered: `${answerSummary(q.answer)} (the count and the reason differ)`, verdict: 'disagree' };
  const want = exp.type === 'Instance' ? 1 : (exp.elements ?? []).length;
  const answered = `${held} part${held === 1 ? '' : 's'} (${answerSummary(q.answer)})`;
  return { what, question, expected, answered, verdict: held === want ? 'agree' : 'disagree' };
}

/** Compare one value question's answer (evaluate / compute) with an expected value. */
function valueCheck(what: string, q: Asked, exp: TypedValue): Check {
  const question = questionText(q.args);
  if (exp.error !== undefined) return errorCheck(what, q, exp.error);
  const expected = show(exp);
  if (q.answer.code !== 0) return { what, question, expected, answered: refusalOf(q.answer), verdict: 'refused' };
  const r = q.answer.json.result;
  if (r.claim !== 'value' || !r.values || r.values.length === 0) return { what, question, expected, answered: answerSummary(q.answer), verdict: 'refused' };
  if (identityOnly(exp)) return { what, question, expected, answered: answerSummary(q.answer), verdict: 'not askable' };
  const got: Got = r.values[0];
  const d = disagreement(exp, got);
  return { what, question, expected, answered: showGot(got) + (d ? ` (${d})` : ''), verdict: d ? 'disagree' : 'agree' };
}

/** One outcome of an `outcomes` answer: its end and the nodes its tokens were left at. */
interface Outcome {
  end: string;
  nodes: string[];
  values: Map<string, Got>;
}
export function outcomesOf(result: any): Outcome[] {
  const ends = new Map<number, Outcome>();
  for (const v of result.values ?? []) {
    const m = /^(.*)@(\d+)$/.exec(v.name);
    if (!m) continue;
    const k = Number(m[2]);
    const o = ends.get(k) ?? { end: '', nodes: [], values: new Map() };
    ends.set(k, o);
    if (m[1] === 'end') o.end = String(v.value);
    else o.values.set(m[1]!, v);
  }
  // "1 outcome (…): 1: deadlock (t1@b), 2: done" — the token places are only in the reason.
  const text = String(result.reason ?? '');
  const colon = text.indexOf('): ');
  const list = colon >= 0 ? text.slice(colon + 3) : '';
  for (const m of list.matchAll(/(\d+): (\w+)(?: \(([^)]*)\))?/g)) {
    const o = ends.get(Number(m[1]));
    if (o && m[3]) o.nodes = m[3].split(',').map((s) => s.trim().replace(/^t\d+@/, ''));
  }
  return [...ends.keys()].sort((a, b) => a - b).map((k) => ends.get(k)!);
}

/** The state an outcome ended in, as the suite writes it: `done`, or the active leaf states joined by `+`. */
function finalStateOf(o: Outcome): string {
  if (o.end === 'done' || o.end === 'terminated') return 'done';
  return o.nodes.join('+');
}
function sameFinalState(expected: string, got: Outcome): boolean {
  if (expected === 'done') return got.end === 'done' || got.end === 'terminated';
  const want = expected.split('+');
  if (want.length !== got.nodes.length) return false;
  const match = (e: string, n: string) => n === e || n.endsWith(`.${e}`) || e.endsWith(`.${n}`);
  return want.every((e) => got.nodes.some((n) => match(e, n)));
}

function behaviourChecks(what: string, q: Asked, exp: { finalState?: string | undefined; outputs?: Record<string, TypedValue> | undefined; stateVisits?: string[] | undefined }, events: boolean, isState: boolean): Check[] {
  const question = questionText(q.args);
  const checks: Check[] = [];
  if (q.answer.code !== 0) {
    return [{ what, question, expected: describeBehaviour(exp), answered: refusalOf(q.answer), verdict: 'refused' }];
  }
  const r = q.answer.json.result;
  if (r.claim !== 'outcomes') return [{ what, question, expected: describeBehaviour(exp), answered: answerSummary(q.answer), verdict: 'refused' }];
  const outs = outcomesOf(r);
  const summary = (f: (o: Outcome) => string) => outs.map((o, i) => `${i + 1}: ${f(o)}`).join('; ');
  if (events) {
    // Every order of the environment's events was explored, and the outcomes are the ends of runs the
    // environment can always extend: a state the given (finite) sequence leaves the machine waiting in
    // is no end of them. So the case's final state and outputs are not askable either way: among the
    // ends they need not be the sequence's end, and absent from them the machine may still rest there.
    if (exp.finalState !== undefined) {
      const reachable = outs.some((o) => sameFinalState(exp.finalState!, o));
      checks.push({
        what: `${what}: final state under the given event sequence`,
        question,
        expected: exp.finalState,
        answered: `${summary(finalStateOf)}${reachable ? ' (an end under some event order; the ordered sequence cannot be injected)' : ' (no end of a run; where the given sequence leaves the machine waiting is not a question assay asks)'}`,
        verdict: 'not askable',
      });
    }
    for (const [name, v] of Object.entries(exp.outputs ?? {})) {
      const reached = outs.some((o) => o.values.has(name) && !disagreement(v, o.values.get(name)!));
      const reported = outs.some((o) => o.values.has(name));
      checks.push({
        what: `${what}: output ${name} under the given event sequence`,
        question,
        expected: show(v),
        answered: reported ? `${summary((o) => showGot(o.values.get(name)))}${reached ? ' (at an end under some event order)' : ' (at no end of a run)'}` : '(not reported)',
        verdict: !reported ? 'refused' : 'not askable',
      });
    }
    return checks;
  }
  if (exp.finalState !== undefined) {
    const bad = outs.filter((o) => !sameFinalState(exp.finalState!, o));
    checks.push({ what: `${what}: final state`, question, expected: exp.finalState, answered: summary(finalStateOf), verdict: outs.length > 0 && bad.length === 0 ? 'agree' : 'disagree' });
  } else if (!isState) {
    // An action case without `error` must run to completion (README.upstream.md).
    const stuck = outs.filter((o) => o.end === 'deadlock');
    if (stuck.length > 0) checks.push({ what: `${what}: runs to completion`, question, expected: 'done', answered: summary((o) => (o.end === 'deadlock' ? `deadlock (${o.nodes.join(', ')})` : o.end)), verdict: 'disagree' });
  }
  for (const [name, v] of Object.entries(exp.outputs ?? {})) {
    const reported = outs.filter((o) => o.values.has(name));
    if (reported.length === 0) {
      checks.push({ what: `${what}: output ${name}`, question, expected: show(v), answered: `(not reported; outcome values: ${[...new Set(outs.flatMap((o) => [...o.values.keys()]))].join(', ') || 'none'})`, verdict: 'refused' });
      continue;
    }
    const bad = outs.filter((o) => !o.values.has(name) || disagreement(v, o.values.get(name)!));
    checks.push({
      what: `${what}: output ${name}`,
      question,
      expected: show(v),
      answered: outs.length === 1 ? showGot(outs[0]!.values.get(name)) : summary((o) => showGot(o.values.get(name))),
      verdict: bad.length === 0 ? 'agree' : 'disagree',
    });
  }
  if (exp.stateVisits) checks.push({ what: `${what}: state visits`, question, expected: exp.stateVisits.join(' → '), answered: '(outcomes report ends, not the visit order)', verdict: 'not askable' });
  return checks;
}
function describeBehaviour(exp: { finalState?: string | undefined; outputs?: Record<string, TypedValue> | undefined }): string {
  const parts: string[] = [];
  if (exp.finalState !== undefined) parts.push(`final state ${exp.finalState}`);
  for (const [k, v] of Object.entries(exp.outputs ?? {})) parts.push(`${k}=${show(v)}`);
  return parts.join(', ') || 'runs to completion';
}

function notAskable(what: string, why: string, expected = ''): Check {
  return { what, question: '', expected, answered: why, verdict: 'not askable' };
}

/** `Vehicle` + `engine.mass` → `test::Vehicle::engine::mass`. */
function featurePath(owner: string, slot: string): string {
  return `${owner}::${slot.split('.').join('::')}`;
}

async function checksOf(c: Case): Promise<Check[]> {
  const e = c.expected;
  const model = ['--model', rel(c.file)];
  const checks: Check[] = [];
  switch (e.type) {
    case 'calc': {
      const found = e.evaluate ? { element: findPath(c.source, e.evaluate), path: e.evaluate } : firstDeclared(c.source, ['calc']);
      if (!found?.element) return [notAskable('calc', `no calc ${e.evaluate ?? ''} found by the project's parser`)];
      const params = inParameters(c.source, found.element);
      const inputs = e.inputs ?? [];
      if (inputs.length > params.length) return [notAskable('calc result', `${inputs.length} positional inputs but the parser reads ${params.length} \`in\` parameter(s) (${params.join(', ') || 'none'})`, show(e.result ?? {}))];
      const binds: string[] = [];
      for (let i = 0; i < inputs.length; i++) {
        const t = bindText(inputs[i]!);
        if (typeof t !== 'string') return [notAskable('calc result', t.notAskable, show(e.result ?? {}))];
        binds.push('--bind', `${params[i]}=${t}`);
      }
      const q = await asked(['compute', found.path, ...model, ...binds]);
      if (e.error !== undefined) return [errorCheck('calc result', q, e.error)];
      return [valueCheck('calc result', q, e.result ?? {})];
    }
    case 'calcUsage': {
      const subject = e.evaluate!;
      if (e.result) checks.push(valueCheck('calc usage result', await asked(['compute', subject, ...model]), e.result));
      for (const [name, v] of Object.entries(e.outputs ?? {})) checks.push(valueCheck(`output ${name}`, await asked(['evaluate', featurePath(subject, name), ...model]), v));
      for (const [name, v] of Object.entries(e.reads ?? {})) checks.push(valueCheck(`read ${name}`, await asked(['evaluate', name, ...model]), v));
      return checks;
    }
    case 'constraint':
    case 'requirement': {
      let subject: string | undefined;
      if (e.instantiate) {
        // A condition of a nested definition, about the object: assay names it by its path in the object.
        const owner = e.evaluate?.split('::').slice(0, -1).join('::');
        const path = owner ? objectPathTo(c.source, e.instantiate, owner) : undefined;
        if (!path) return [notAskable(`${e.type} verdict about ${e.instantiate}`, `no part of ${e.instantiate} found typed by ${owner} (the path assay names the condition by)`, String(e.satisfied))];
        subject = `${path}::${e.evaluate!.split('::').pop()}`;
      }
      const kinds = e.type === 'constraint' ? ['constraint'] : ['requirement', 'constraint'];
      subject ??= e.evaluate ?? firstDeclared(c.source, kinds)?.path;
      if (!subject) return [notAskable(e.type, `no ${e.type} declared by the document's packages`)];
      const binds: string[] = [];
      for (const [name, v] of Object.entries(e.bindings ?? {})) {
        const t = bindText(v);
        if (typeof t !== 'string') return [notAskable(`${e.type} verdict`, t.notAskable)];
        binds.push('--bind', `${name}=${t}`);
      }
      const q = await asked(['evaluate', subject, ...model, ...binds]);
      if (e.error !== undefined) return [errorCheck(`${e.type} verdict`, q, e.error)];
      return [valueCheck(`${e.type} verdict`, q, { type: 'Boolean', value: e.satisfied ?? null })];
    }
    case 'satisfy': {
      const subject = e.evaluate;
      if (!subject) return [notAskable('satisfaction', 'no context named: every assertion of the model is evaluated, which assay has no question for')];
      const q = await asked(['evaluate', subject, ...model]);
      if (e.error !== undefined) return [errorCheck('satisfaction', q, e.error)];
      const expectations: [string, boolean][] = e.assertions ? Object.entries(e.assertions) : e.satisfied !== undefined ? [['the assertion', e.satisfied]] : [];
      const question = questionText(q.args);
      if (q.answer.code !== 0) return [{ what: 'satisfaction', question, expected: expectations.map(([k, v]) => `${k}: ${v}`).join('; '), answered: refusalOf(q.answer), verdict: 'refused' }];
      const values: Got[] & { name?: string }[] = q.answer.json.result.values ?? [];
      // One value per asserted constraint, in declaration order: matched to the assertions as written.
      const order = expectations.map(([k]) => [k, c.source.indexOf(k.replace(/^not /, ''))] as const).sort((a, b) => a[1] - b[1]).map(([k]) => k);
      for (const [k, v] of expectations) {
        const byName = (values as any[]).find((x) => typeof x.name === 'string' && k.split(' ').slice(-1)[0] && x.name.includes(k.split(' ').slice(-1)[0]!));
        const got = byName ?? (values.length === expectations.length ? values[order.indexOf(k)] : undefined);
        if (!got) {
          checks.push({ what: `satisfaction ${k}`, question, expected: String(v), answered: `(not reported: ${answerSummary(q.answer)})`, verdict: 'refused' });
          continue;
        }
        const d = disagreement({ type: 'Boolean', value: v }, got);
        checks.push({ what: `satisfaction ${k}`, question, expected: String(v), answered: showGot(got), verdict: d ? 'disagree' : 'agree' });
      }
      return checks;
    }
    case 'instance': {
      const type = e.instantiate!;
      if (e.error !== undefined) {
        // The diagnostic is about the declaration as a whole: ask for each of its valued features.
        const element = findPath(c.source, type);
        const features = (element?.body ?? []).filter((m): m is Usage => m.kind === 'Usage' && (m.name !== null || m.relations.some((r) => r.relation === 'redefinition')) && m.value !== null);
        if (features.length === 0) return [notAskable('instantiation', `${type}: no valued feature to evaluate`, `error "${e.error}"`)];
        for (const f of features) {
          const name = f.name ?? refName(f.relations.find((r) => r.relation === 'redefinition')!)!;
          checks.push(errorCheck(`instantiation (feature ${name})`, await asked(['evaluate', featurePath(type, name), ...model]), e.error));
        }
        return checks;
      }
      for (const [slot, v] of Object.entries(e.slots ?? {})) {
        if (partsOnly(v)) {
          checks.push(partsCheck(`slot ${slot}`, await asked(['evaluate', featurePath(type, slot), ...model]), v));
          continue;
        }
        checks.push(valueCheck(`slot ${slot}`, await asked(['evaluate', featurePath(type, slot), ...model]), v));
      }
      for (const [name, v] of Object.entries(e.constraints ?? {})) {
        checks.push(valueCheck(`constraint ${name}`, await asked(['evaluate', featurePath(type, name), ...model]), { type: 'Boolean', value: v }));
      }
      // Object identity: `evaluate <type> --condition identical=a == b and …` (instances compare by identity).
      for (const group of e.identical ?? []) {
        const text = group.slice(1).map((x, i) => `${group[i]} == ${x}`).join(' and ');
        checks.push(valueCheck(`identity of ${group.join(', ')}`, await asked(['evaluate', type, ...model, '--condition', `identical=${text}`]), { type: 'Boolean', value: true }));
      }
      for (const [i, o] of (e.objects ?? []).entries()) {
        checks.push(notAskable(`object ${o.instance ?? i + 1}`, 'per-object performance of a behaviour (its own events, final state and slots) is not a question assay asks of a definition', describeBehaviour(o)));
      }
      return checks;
    }
    case 'action': {
      const subject = e.evaluate ?? firstDeclared(c.source, ['action'])?.path;
      if (!subject) return [notAskable('action', 'no action declared by the document\'s packages')];
      const q = await asked(['outcomes', subject, ...model, '-schedule', 'all']);
      if (e.error !== undefined) return [errorCheck('action run', q, e.error)];
      return behaviourChecks('action', q, e, false, false);
    }
    case 'state': {
      const subject = e.evaluate ?? firstDeclared(c.source, ['state'])?.path;
      if (!subject) return [notAskable('state machine', 'no state declared by the document\'s packages')];
      if (e.performers) {
        for (const p of e.performers) {
          const events = (p.events ?? []).length > 0;
          const q = await asked(['outcomes', p.object, ...model, ...(events ? ['--free', 'inputs'] : ['-schedule', 'all'])]);
          checks.push(...behaviourChecks(`performed by ${p.object}`, q, p, events, true));
        }
        return checks;
      }
      const events = (e.events ?? []).length > 0;
      const q = await asked(['outcomes', subject, ...model, ...(events ? ['--free', 'inputs'] : ['-schedule', 'all'])]);
      if (e.error !== undefined) return [errorCheck('state machine run', q, e.error)];
      return behaviourChecks('state machine', q, e, events, true);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Classification

export type Verdict = 'pass' | 'wrong' | 'refused' | 'syntax error' | 'not askable';
export const VERDICTS: readonly Verdict[] = ['pass', 'wrong', 'refused', 'syntax error', 'not askable'];

export interface CaseResult {
  name: string;
  type: string;
  standard: boolean;
  notation: string[];
  syntaxErrors: string[];
  spec: SpecContradiction | undefined;
  verdict: Verdict;
  /** Why, for every verdict but pass: the first refusal, disagreement or reason it is not askable. */
  reason: string;
  checks: Check[];
}

export function classify(c: Case, checks: Check[]): CaseResult {
  const base = { name: c.name, type: c.expected.type, standard: c.standard, notation: c.notation, syntaxErrors: c.syntaxErrors, spec: c.spec, checks };
  const wrong = checks.find((k) => k.verdict === 'disagree');
  if (wrong) return { ...base, verdict: 'wrong', reason: `${wrong.what}: expected ${wrong.expected}, answered ${wrong.answered}` };
  if (checks.length > 0 && checks.every((k) => k.verdict === 'agree')) return { ...base, verdict: 'pass', reason: '' };
  if (c.syntaxErrors.length > 0) return { ...base, verdict: 'syntax error', reason: c.syntaxErrors[0]! };
  const refused = checks.find((k) => k.verdict === 'refused');
  if (refused) return { ...base, verdict: 'refused', reason: refused.answered };
  const na = checks.find((k) => k.verdict === 'not askable');
  return { ...base, verdict: 'not askable', reason: na ? `${na.what}: ${na.answered}` : 'no question' };
}

export async function runCase(c: Case): Promise<CaseResult> {
  const checks = await checksOf(c);
  // A contradiction found in the model: the engine's refusal naming the binding is the spec-correct outcome too.
  const also = c.spec?.refusalAlsoAgrees;
  if (also !== undefined) {
    for (const k of checks) {
      if (k.verdict === 'refused' && also.test(k.answered)) { k.verdict = 'agree'; k.answered += ' (the spec-correct refusal)'; }
    }
  }
  return classify(c, checks);
}

export async function runAll(cases: Case[], jobs = 2, onResult?: (r: CaseResult) => void): Promise<CaseResult[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await runCase(cases[i]!);
      onResult?.(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------
// Report

export interface Row {
  type: string;
  cases: number;
  counts: Record<Verdict, number>;
  /** Passes where the spec-correct outcome is a refusal (a spec contradiction), not an answer. */
  specRefusals: number;
}

/** A pass by refusing where the specification gives the model no answer (a spec contradiction). */
export function passedByRefusal(r: CaseResult): boolean {
  return r.verdict === 'pass' && r.spec !== undefined && r.checks.some((k) => k.expected.startsWith('error "') || k.answered.endsWith('(the spec-correct refusal)'));
}

export function tabulate(results: CaseResult[]): Row[] {
  const types = [...new Set(results.map((r) => r.type))].sort();
  const row = (type: string, rs: CaseResult[]): Row => ({
    type,
    cases: rs.length,
    counts: Object.fromEntries(VERDICTS.map((v) => [v, rs.filter((r) => r.verdict === v).length])) as Record<Verdict, number>,
    specRefusals: rs.filter(passedByRefusal).length,
  });
  return [...types.map((t) => row(t, results.filter((r) => r.type === t))), row('all', results)];
}

function table(title: string, rows: Row[]): string {
  const head = ['type', 'cases', VERDICTS[0], 'of which by refusal (spec)', ...VERDICTS.slice(1)];
  const body = rows.map((r) => [r.type, String(r.cases), String(r.counts[VERDICTS[0]]), String(r.specRefusals), ...VERDICTS.slice(1).map((v) => String(r.counts[v]))]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [`${title}`, line(head), `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 1) + '-' : '-'.repeat(w + 1) + ':')).join('|')}|`, ...body.map(line)].join('\n');
}

/** Refusal reasons with case-specific names and places replaced, so like reasons group. */
export function reasonKey(reason: string): string {
  return reason
    .replace(/\b[\w.-]+\.sysml:\d+:\d+:?\s*/g, '')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\b(found|got) '?[^\s,;']+'?/g, '$1 …')
    .replace(/\b\w+(::\w+)+\b/g, '<name>')
    .replace(/\d+/g, 'n')
    .slice(0, 160);
}

export function topReasons(results: CaseResult[], verdicts: Verdict[] = ['refused'], n = 15): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of results) if (verdicts.includes(r.verdict)) counts.set(reasonKey(r.reason), (counts.get(reasonKey(r.reason)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

export function report(results: CaseResult[]): string {
  const out: string[] = [];
  out.push(`OpenSysML execution conformance (${results.length} cases from ${relative(ROOT, SUITE_DIR)}); deadline ${DEADLINE} s per question`);
  out.push('');
  out.push(table('Standard SysML v2 notation', tabulate(results.filter((r) => r.standard))));
  out.push('');
  out.push(table("Nonstandard (OpenSysML's own notation)", tabulate(results.filter((r) => !r.standard))));
  out.push('');
  out.push(table('Total', tabulate(results)));
  const notation = new Map<string, number>();
  for (const r of results) for (const n of r.notation) notation.set(n, (notation.get(n) ?? 0) + 1);
  out.push('');
  out.push('Nonstandard notation (cases using it): ' + [...notation.entries()].sort((a, b) => b[1] - a[1]).map(([n, k]) => `${n} ${k}`).join(', '));
  const otherSyntax = results.filter((r) => r.standard && r.syntaxErrors.length > 0);
  if (otherSyntax.length > 0) out.push(`Standard cases with syntax errors: ${otherSyntax.map((r) => `${r.name} (${r.syntaxErrors[0]})`).join('; ')}`);
  const spec = results.filter((r) => r.spec && r.spec.kind !== 'decision');
  out.push('');
  out.push(`Spec contradictions applied (${spec.length}): the expectation scored is the spec-correct one`);
  for (const r of spec) out.push(`  ${r.name}: ${r.spec!.why} → ${r.spec!.outcome}`);
  const decisions = results.filter((r) => r.spec?.kind === 'decision');
  if (decisions.length > 0) {
    out.push('');
    out.push(`Assay's documented decisions applied (${decisions.length}): the expectation scored is Assay's documented reading`);
    for (const r of decisions) out.push(`  ${r.name}: ${r.spec!.why} → ${r.spec!.outcome}`);
  }
  const wrong = results.filter((r) => r.verdict === 'wrong');
  out.push('');
  out.push(`Wrong (${wrong.length}):`);
  for (const r of wrong) {
    for (const k of r.checks.filter((k) => k.verdict === 'disagree')) {
      out.push(`  ${r.name}${r.standard ? '' : ' [nonstandard]'}: ${k.what}`);
      out.push(`      question: ${k.question}`);
      out.push(`      expected: ${k.expected}`);
      out.push(`      answered: ${k.answered}`);
    }
  }
  out.push('');
  out.push('Top refusal reasons:');
  for (const [reason, count] of topReasons(results)) out.push(`  ${String(count).padStart(3)}  ${reason}`);
  out.push('');
  out.push('Not askable:');
  for (const [reason, count] of topReasons(results, ['not askable'])) out.push(`  ${String(count).padStart(3)}  ${reason}`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// CLI

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? argv[onlyAt + 1] : undefined;
  const jobsAt = argv.indexOf('--jobs');
  const jobs = jobsAt >= 0 ? Number(argv[jobsAt + 1]) : 2;
  const verbose = argv.includes('--verbose');
  const cases = loadCases(SUITE_DIR, only);
  let done = 0;
  const results = await runAll(cases, jobs, (r) => {
    done++;
    if (!json && process.stderr.isTTY) process.stderr.write(`\r${done}/${cases.length} ${r.name.padEnd(60).slice(0, 60)}`);
  });
  if (!json && process.stderr.isTTY) process.stderr.write('\n');
  if (json) {
    process.stdout.write(JSON.stringify({ suite: relative(ROOT, SUITE_DIR), deadline: DEADLINE, table: { standard: tabulate(results.filter((r) => r.standard)), nonstandard: tabulate(results.filter((r) => !r.standard)), total: tabulate(results) }, cases: results }) + '\n');
  } else {
    process.stdout.write(report(results) + '\n');
    if (verbose) {
      for (const r of results) {
        process.stdout.write(`\n${r.name} [${r.type}, ${r.standard ? 'standard' : 'nonstandard'}]: ${r.verdict}${r.reason ? ` — ${r.reason}` : ''}\n`);
        for (const k of r.checks) process.stdout.write(`    ${k.verdict}: ${k.what}; expected ${k.expected}; answered ${k.answered}${k.question ? `\n        ${k.question}` : ''}\n`);
      }
    }
  }
  return results.some((r) => r.verdict === 'wrong') ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`conformance: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(2);
    },
  );
}

