// What `covers` checks before a run: expressions the evaluator does not evaluate, named with their place.
// (Behaviour statements such as send and accept are not listed: reading values, they are inert, and
// where a layer meets one it refuses it by the construct table, src/sysml/support.ts.)
import type { Expression, SourceRange } from '../../sysml/ast';
import { place } from '../../sysml/model/errors';
import type { ModelElement } from '../../sysml/model/model';
import type { Model } from '../../sysml/model/session';
import { constructionRefusal } from '../../sysml/model/environment';

/** A construct the evaluator does not handle, as a short phrase, or undefined. */
function constructOf(node: { kind: string } & Record<string, unknown>): string | undefined {
  switch (node.kind) {
    case 'Extent':
      return "'all' (the extent of a type)";
    case 'MetadataAccess':
      return 'metadata access';
    case 'Classification': {
      const op = (node as unknown as Expression & { kind: 'Classification' }).operator;
      // `x @@ T` is answered where the value model reads it (a refusal elsewhere names it at run time).
      return op === 'meta' ? `metaclassification '${op}'` : undefined;
    }
    default:
      return undefined;
  }
}

/** Walks an AST subtree for the first unsupported construct; `constructs` says whether a `new T(…)` is modeled (undefined) or why not. */
function firstUnsupported(root: unknown, constructs: (node: Expression & { kind: 'Constructor' }) => string | undefined): { what: string; range: SourceRange; sentence?: boolean } | undefined {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const n = stack.pop();
    if (typeof n !== 'object' || n === null || seen.has(n)) continue;
    seen.add(n);
    if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) stack.push(n[i]);
      continue;
    }
    const node = n as { kind?: unknown; range?: SourceRange } & Record<string, unknown>;
    if (typeof node.kind === 'string') {
      // A send's or accept's expressions (`send new S() to b`) run only with the behaviour.
      if (node.kind === 'SendAction' || node.kind === 'AcceptAction') continue;
      if (node.kind === 'Constructor') {
        const why = constructs(node as unknown as Expression & { kind: 'Constructor' });
        if (why && node.range) return { what: why, range: node.range, sentence: true };
      }
      const what = node.kind === 'Constructor' ? undefined : constructOf(node as { kind: string } & Record<string, unknown>);
      if (what && node.range) return { what, range: node.range };
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'range' && k !== 'nameRange' && typeof v === 'object') stack.push(v);
  }
  return undefined;
}

/**
 * The first construct in the subject (and in the definitions it specializes) that the engine cannot
 * evaluate: `model.sysml:7:29: 'all' (the extent of a type) is not supported`.
 */
export function unsupportedConstruct(model: Model, subject: ModelElement): string | undefined {
  const unresolved = model.index.unresolvedType(subject);
  if (unresolved) return unresolved;
  const elements = [subject, ...model.index.typesOf(subject)];
  const constructs = (node: Expression & { kind: 'Constructor' }): string | undefined => {
    const scope = model.index.writtenIn(node.type);
    return constructionRefusal(model.index, scope ? model.index.resolveReference(scope, node.type) : undefined, node.type.kind === 'QualifiedName' ? node.type.segments.join('::') : node.type.chain.map((q) => q.segments.join('::')).join('.'));
  };
  for (const e of elements) {
    const found = firstUnsupported(e.node, constructs);
    if (found) return `${place(e.path, found.range)}: ${found.what}${found.sentence ? '' : ' is not supported'}`;
  }
  return undefined;
}
