// Declarations that read as assignments. The grammar admits `x = e;` in any body as a feature declared
// without a keyword (DefaultReferenceUsage: RefPrefix Usage): it declares a NEW feature `x` whose value
// is `e`, it never changes an existing `x`. In an action, calc, state, loop or if body, where a modeler
// writes steps, `sum = sum + x;` over a `sum` declared in an enclosing body is read as an assignment
// and means something else entirely; the parser reports it as an error (so the engine refuses a model
// with it, as it does any syntax error) and says to write `assign sum := sum + x;`.
import type { Document, Member, SourceRange, SyntaxDiagnostic, Usage } from './ast';

/** Keywords of the bodies in which a modeler writes steps. */
const BEHAVIOUR = new Set<string>([
  'action', 'calc', 'constraint', 'state', 'case', 'analysis', 'verification', 'use case',
  // KerML
  'behavior', 'function', 'predicate', 'step', 'expr', 'bool', 'inv',
]);

const SHOWN_EXPRESSION = 40;

/** A body's names, counted only when a declaration that reads as an assignment asks (rare): most
 * documents have none, and counting every body's names was a fifth of a cold parse's own work. */
class Scope {
  private counts: Map<string, number> | null = null;
  constructor(
    private readonly members: readonly Member[] | null,
    private readonly extra: string | null,
    readonly parent: Scope | null,
  ) {}

  count(name: string): number {
    if (this.counts === null) {
      this.counts = new Map();
      if (this.extra !== null) this.counts.set(this.extra, 1);
      for (const m of this.members ?? []) for (const n of namesOf(m)) this.counts.set(n, (this.counts.get(n) ?? 0) + 1);
    }
    return this.counts.get(name) ?? 0;
  }
}

/** Every keyword-less declaration in a behaviour body that redeclares a name of the same or an enclosing body. */
export function declarationsReadAsAssignments(document: Document, source: string): SyntaxDiagnostic[] {
  const out: SyntaxDiagnostic[] = [];
  const visitBody = (owner: Member | null, members: readonly Member[], enclosing: Scope | null) => {
    const behaviour = owner !== null && isBehaviour(owner);
    const scope = new Scope(members, null, enclosing);
    for (const m of members) {
      if (behaviour && m.kind === 'Usage' && readsAsAssignment(m)) {
        const name = m.name!;
        // Declared elsewhere in this body (not only by itself), or in a body around it.
        let redeclares = scope.count(name) > 1;
        for (let s = enclosing; s && !redeclares; s = s.parent) redeclares = s.count(name) > 0;
        if (redeclares) out.push({ message: message(m, source), range: m.range });
      }
      visitMember(m, scope);
    }
  };
  const visitMember = (m: Member, scopes: Scope) => {
    switch (m.kind) {
      case 'Package':
        visitBody(m, m.members ?? [], scopes);
        return;
      case 'Definition':
      case 'Usage':
        if (m.body) visitBody(m, m.body, scopes);
        return;
      case 'IfAction':
        visitMember(m.then, scopes);
        if (m.else) visitMember(m.else, scopes);
        return;
      case 'LoopAction':
        visitMember(m.bodyAction, scopes);
        return;
      case 'ForAction': {
        const variable = m.variable.name;
        visitMember(m.bodyAction, variable ? new Scope(null, variable, scopes) : scopes);
        return;
      }
      case 'StateSubaction':
        if (m.action) visitMember(m.action, scopes);
        return;
      case 'Transition':
        if (m.effect) visitMember(m.effect, scopes);
        if (m.body) visitBody(m, m.body, scopes);
        return;
      default: {
        const body = (m as { body?: Member[] | null }).body;
        if (Array.isArray(body)) visitBody(m, body, scopes);
      }
    }
  };
  visitBody(null, document.members, null);
  return out;
}

function isBehaviour(owner: Member): boolean {
  if (owner.kind === 'Definition' || owner.kind === 'Usage') return BEHAVIOUR.has(owner.keyword);
  return owner.kind === 'AcceptAction' || owner.kind === 'SendAction' || owner.kind === 'AssignAction' || owner.kind === 'Transition';
}

function namesOf(m: Member): string[] {
  const named = m as { name?: string | null; shortName?: string | null };
  const out: string[] = [];
  if (typeof named.name === 'string') out.push(named.name);
  if (typeof named.shortName === 'string' && named.shortName !== named.name) out.push(named.shortName);
  return out;
}

/** `x = e;` or `x := e;`: no keyword, no prefix, no type or specialization, just a name and a value. */
function readsAsAssignment(u: Usage): boolean {
  return u.isKeywordImplicit && u.name !== null && u.role === null && u.direction === null && !u.isRef &&
    !u.isDerived && !u.isConstant && !u.isAbstract && !u.isVariation && !u.isEnd && u.relations.length === 0 &&
    u.multiplicity === null && u.value !== null && !u.value.isDefault && u.prefixMetadata.length === 0;
}

function message(u: Usage, source: string): string {
  const value = u.value!;
  const op = value.isInitial ? ':=' : '=';
  const expr = shown(value.expression.range, source);
  return `\`${u.name} ${op} ${expr};\` declares a new feature '${u.name}', it does not assign: write \`assign ${u.name} := ${expr};\``;
}

function shown(range: SourceRange, source: string): string {
  const text = source.slice(range.start, range.end).replace(/\s+/g, ' ').trim();
  return text.length <= SHOWN_EXPRESSION ? text : `${text.slice(0, SHOWN_EXPRESSION - 1)}…`;
}
