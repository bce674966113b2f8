// Generic traversal of the syntax tree: every object with a `kind` below a node, depth first, parents
// before children, children in the order of the node's fields. Iterative, so a very long operator
// chain (a left-nested tree thousands deep) cannot overflow the stack.

import type { Node } from './ast';

/** Calls `visit` on `root` and every node below it. Returning false from `visit` skips the node's
 * children. */
export function walk(root: Node, visit: (node: Node, parent: Node | null) => boolean | void): void {
  const nodes: Node[] = [root];
  const parents: (Node | null)[] = [null];
  const children: Node[] = [];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const parent = parents.pop()!;
    if (visit(node, parent) === false) continue;
    children.length = 0;
    for (const key in node) {
      if (key === 'range' || key === 'nameRange' || key === 'kind') continue;
      const v = (node as unknown as Record<string, unknown>)[key];
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const item of v) if (item !== null && typeof item === 'object' && 'kind' in item) children.push(item as Node);
      } else if ('kind' in v) {
        children.push(v as Node);
      }
    }
    // Pushed in reverse so they are visited in field order.
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]!);
      parents.push(node);
    }
  }
}

/** The node's direct children. */
export function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  walk(node, (n, parent) => {
    if (parent === null) return true;
    out.push(n);
    return false;
  });
  return out;
}
