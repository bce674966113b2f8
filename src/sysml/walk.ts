// Generic traversal of the syntax tree: every object with a `kind` below a node, depth first, in
// source order of the fields as the parser builds them.

import type { Node } from './ast';

/** Calls `visit` on `root` and every node below it. Returning false from `visit` skips the node's
 * children. */
export function walk(root: Node, visit: (node: Node, parent: Node | null) => boolean | void): void {
  const step = (node: Node, parent: Node | null): void => {
    if (visit(node, parent) === false) return;
    for (const key in node) {
      if (key === 'range' || key === 'nameRange' || key === 'kind') continue;
      const v = (node as unknown as Record<string, unknown>)[key];
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (const item of v) if (item !== null && typeof item === 'object' && 'kind' in item) step(item as Node, node);
      } else if ('kind' in v) {
        step(v as Node, node);
      }
    }
  };
  step(root, null);
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
