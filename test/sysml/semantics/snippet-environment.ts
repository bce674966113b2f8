// A small in-memory Environment over one parsed snippet, for evaluator tests: top-level names of the
// first package (attributes, parts, enums, calc and constraint definitions), bindings overriding
// attribute values, and parts as instances whose features are their body's usages. Real name
// resolution (imports, inheritance, several documents) is the engine's and the resolver's work.
import { strict as assert } from 'node:assert';
import type { Definition, Member, QualifiedName, Usage } from '../../../src/sysml/ast';
import { parse } from '../../../src/sysml/parser';
import { declaredName, Evaluator, LocalScope, type Environment, type EvaluationOptions } from '../../../src/sysml/semantics/evaluate';
import { enumLiteral, type Outcome, type Value } from '../../../src/sysml/semantics/values';

export interface SnippetModel {
  readonly env: Environment;
  readonly evaluator: Evaluator;
  /** The value of a top-level attribute (or feature chain `a.b`). */
  value(path: string): Outcome;
  definition(name: string): Definition;
  usage(name: string): Usage;
}

export function snippetModel(source: string, bindings: Record<string, Value> = {}, options: EvaluationOptions = {}): SnippetModel {
  const parsed = parse(source);
  assert.deepEqual(parsed.errors.map((e) => `${e.range.line}:${e.range.column} ${e.message}`), [], 'snippet parses');
  const pkg = parsed.document.members.find((m) => m.kind === 'Package');
  const members: readonly Member[] = pkg && pkg.kind === 'Package' && pkg.members ? pkg.members : parsed.document.members;
  const evaluator = new Evaluator(options);
  const definitions = new Map<string, Definition>();
  const usages = new Map<string, Usage>();
  for (const m of members) {
    if (m.kind === 'Definition' && m.name) definitions.set(m.name, m);
    if (m.kind === 'Usage') {
      const n = declaredName(m);
      if (n) usages.set(n, m);
    }
  }

  const top = new LocalScope({
    lookup: (name: QualifiedName) => {
      // Enum literals: `Colour::red`.
      if (name.segments.length === 2) {
        const def = definitions.get(name.segments[0]!);
        const literal = def?.keyword === 'enum' && def.body?.some((m) => m.kind === 'Usage' && declaredName(m) === name.segments[1]);
        if (literal) return enumLiteral(def.name!, name.segments[1]!);
      }
      return undefined;
    },
    invoke: (callee, args, ev, at) => {
      const key = callee.kind === 'QualifiedName' ? callee.segments.at(-1)! : '';
      const def = definitions.get(key);
      if (!def || !def.body || (def.keyword !== 'calc' && def.keyword !== 'constraint')) return undefined;
      return ev.callBody(key, def.body, args, env, at);
    },
    sourceText: (range) => source.slice(range.start, range.end),
  });
  for (const [n, u] of usages) {
    if (bindings[n] !== undefined) top.define(n, bindings[n]!);
    else if ((u.keyword === 'requirement' || u.keyword === 'constraint') && u.body) {
      // A requirement or constraint usage reads as true or false.
      const body = u.body;
      top.define(n, () => evaluator.callBody(n, body, [], env, u.range));
    } else if (u.value) {
      const expr = u.value.expression;
      top.define(n, () => evaluator.nested(n, expr.range, () => evaluator.evaluate(expr, env)));
    } else if (u.body) {
      const body = u.body;
      top.define(n, () => evaluator.instanceFromBody(n, body, env));
    }
  }
  const env: Environment = top;

  return {
    env,
    evaluator,
    value(path: string): Outcome {
      const [first, ...rest] = path.split('.');
      let v: Outcome | undefined = top.local(first!);
      for (const step of rest) {
        if (!v || v.kind !== 'instance') return { kind: 'error', message: `no instance at ${step}` };
        v = v.member(step);
      }
      return v ?? { kind: 'error', message: `no value for ${path}` };
    },
    definition(name: string): Definition {
      const d = definitions.get(name);
      assert.ok(d, `definition ${name}`);
      return d;
    },
    usage(name: string): Usage {
      const u = usages.get(name);
      assert.ok(u, `usage ${name}`);
      return u;
    },
  };
}
