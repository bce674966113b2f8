// Name resolution for SysML v2 / KerML: a workspace index over parsed documents.
import type { Document } from '../ast';
import { type LazyLibraryDocument, type NameDiagnostic, Workspace } from './workspace';
import type { BuiltinTable } from './builtin-layer';

export { Workspace, type NameDiagnostic, type ResolvedReference, type DeclarationInfo, type LazyLibraryDocument } from './workspace';
export { Declaration, type Layer } from './declarations';
export { BUILTIN_LIBRARY_VERSION } from './builtin-layer';
export { parseQualifiedName, formatQualifiedName } from './qualified';

export interface NamedDocument {
  /** Path or URI, used as the document's identity and in diagnostics. */
  readonly uri: string;
  readonly document: Document;
}

export interface ResolveResult {
  /** Unresolved references of each given (non-library) document, by uri, in text order. */
  readonly diagnostics: Map<string, NameDiagnostic[]>;
  readonly index: Workspace;
}

/** `question.subjectKind`: the kind of the subject when the model declares it exactly once,
 * else undefined (the field is then left out). */
export function subjectKindOf(index: Workspace, subject: string): string | undefined {
  const found = index.declarationsOf(subject);
  return found.length === 1 ? found[0]!.kind : undefined;
}

/** Resolves the names of `docs` against each other and against the library (its documents when
 * given, parsed or lazily, else the built-in table). */
export function resolveDocuments(docs: readonly NamedDocument[], options: { library?: readonly NamedDocument[]; lazyLibrary?: readonly LazyLibraryDocument[]; builtins?: BuiltinTable } = {}): ResolveResult {
  const index = new Workspace(options.builtins ?? null);
  if ((options.library && options.library.length > 0) || (options.lazyLibrary && options.lazyLibrary.length > 0)) {
    index.setLibrary(options.library ?? [], options.lazyLibrary ?? []);
  }
  for (const d of docs) index.update(d.uri, d.document);
  const diagnostics = new Map<string, NameDiagnostic[]>();
  for (const d of docs) diagnostics.set(d.uri, [...index.diagnostics(d.uri)].sort((a, b) => a.range.start - b.range.start));
  return { diagnostics, index };
}
