// The models the server resolves names over: the open documents (their current text wins), the
// workspace's other .sysml/.kerml files on disk, and the standard library (its folder when
// `assay.standardLibraryPath` is set, else the resolver's built-in table). One long-lived name index
// (src/sysml/names), updated one document at a time.
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Location, LocationLink, Range } from 'vscode-languageserver/node';
import { parse, type ParseResult, type SourceRange } from '../sysml';
import { Workspace, type Declaration, type NameDiagnostic, type ResolvedReference } from '../sysml/names';
import { loadLibrary } from './library';
import { canonicalUri, isModelPath, ModelFiles, modelPaths, type ModelFile } from './workspaceModels';

export type ModelLanguage = 'sysml' | 'kerml';

export function languageOf(uri: string, languageId?: string): ModelLanguage {
  return languageId === 'kerml' || uri.toLowerCase().endsWith('.kerml') ? 'kerml' : 'sysml';
}

interface OpenModel {
  readonly uri: string;
  readonly version: number;
  readonly text: TextDocument;
  readonly parsed: ParseResult;
  /** Whether this parse is in the name index yet. */
  declared: boolean;
}

/** What a document's diagnostics depended on when last computed: documents its references
 * resolved into, and whether some reference was unresolved (then any new declaration may matter). */
interface Dependencies {
  readonly documents: ReadonlySet<string>;
  readonly anyDocument: boolean;
}

function pathOf(key: string): string | null {
  if (!key.startsWith('file:')) return null;
  try {
    return fileURLToPath(key);
  } catch {
    return null;
  }
}

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

export class ModelSet {
  readonly index = new Workspace();
  private readonly files = new ModelFiles();
  private roots: string[] = [];
  private readonly open = new Map<string, OpenModel>();
  /** Workspace files on disk that are in the index (not open, not library). */
  private readonly onDisk = new Map<string, ModelFile>();
  private library: { setting: string; folder: string; files: Map<string, ModelFile> } | null = null;
  private libraryError: { setting: string; message: string } | null = null;
  private readonly dependencies = new Map<string, Dependencies>();

  /** Workspace folders (URIs); only `file:` folders are read. */
  setRoots(uris: readonly string[]): void {
    this.roots = uris.flatMap((uri) => pathOf(canonicalUri(uri)) ?? []);
  }

  get workspaceFolder(): string | null {
    return this.roots[0] ?? null;
  }

  get libraryFolder(): string | null {
    return this.library?.folder ?? null;
  }

  /** Applies the library setting ('' = built-in table). Returns a message naming the setting when
   * the value cannot be used, and whether anything changed. */
  configureLibrary(setting: string): { changed: boolean; error: string | null } {
    const value = setting.trim();
    if (value === '') {
      const changed = this.library !== null || this.libraryError !== null;
      this.library = null;
      this.libraryError = null;
      if (changed) this.applyLibrary([]);
      return { changed, error: null };
    }
    if (this.library?.setting === value) return { changed: false, error: null };
    if (this.libraryError?.setting === value) return { changed: false, error: this.libraryError.message };
    const loaded = loadLibrary(value, this.workspaceFolder, this.files);
    if (!loaded.ok) {
      const changed = this.library !== null;
      this.library = null;
      this.libraryError = { setting: value, message: loaded.message };
      if (changed) this.applyLibrary([]);
      return { changed, error: loaded.message };
    }
    this.libraryError = null;
    this.library = { setting: value, folder: loaded.folder, files: new Map(loaded.files.map((f) => [f.uri, f])) };
    this.applyLibrary(loaded.files);
    return { changed: true, error: null };
  }

  private applyLibrary(files: readonly ModelFile[]): void {
    this.index.setLibrary(files.map((f) => ({ uri: f.uri, document: f.parsed.document })));
    // Open documents inside the library folder move between the layers; so may workspace files.
    for (const [key, model] of this.open) {
      if (this.isLibrary(key)) this.index.remove(key);
      else this.index.update(key, model.parsed.document);
    }
    this.rescan();
  }

  private isLibrary(key: string): boolean {
    return this.library?.files.has(key) ?? false;
  }

  private isLibraryPath(path: string): boolean {
    return this.library !== null && inside(path, this.library.folder);
  }

  /** Re-reads the workspace folders: new, changed and deleted model files (by modification time).
   * Returns the files (URIs) that entered or changed in the index, and those that left it. */
  rescan(): { changed: string[]; removed: string[] } {
    const changed: string[] = [];
    const removed: string[] = [];
    const seen = new Set<string>();
    for (const root of this.roots) {
      for (const path of modelPaths(root, (p) => this.isLibraryPath(p))) {
        const file = this.files.load(path);
        if (!file || this.open.has(file.uri) || seen.has(file.uri)) continue;
        seen.add(file.uri);
        if (this.onDisk.get(file.uri) !== file) {
          this.onDisk.set(file.uri, file);
          this.index.update(file.uri, file.parsed.document);
          changed.push(file.uri);
        }
      }
    }
    for (const key of [...this.onDisk.keys()]) {
      if (!seen.has(key)) {
        this.onDisk.delete(key);
        this.dependencies.delete(key);
        if (!this.open.has(key)) {
          this.index.remove(key);
          removed.push(key);
        }
      }
    }
    return { changed, removed };
  }

  private inWorkspace(path: string): boolean {
    return isModelPath(path) && this.roots.some((root) => inside(path, root)) && !this.isLibraryPath(path);
  }

  /** A file on disk was created, changed or deleted. Returns whether the index changed. */
  diskChanged(uri: string): boolean {
    const key = canonicalUri(uri);
    const path = pathOf(key);
    if (!path || this.open.has(key) || !this.inWorkspace(path)) return false;
    const file = this.files.load(path);
    if (!file) {
      if (!this.onDisk.delete(key)) return false;
      this.dependencies.delete(key);
      this.index.remove(key);
      return true;
    }
    if (this.onDisk.get(key) === file) return false;
    this.onDisk.set(key, file);
    this.index.update(key, file.parsed.document);
    return true;
  }

  /** Parses an open document's current version (a no-op for a version already parsed), without
   * bringing it into the name index yet: enough for syntax errors and the outline. */
  parseOnly(document: TextDocument): void {
    const key = canonicalUri(document.uri);
    const known = this.open.get(key);
    if (known && known.version === document.version && known.uri === document.uri) return;
    const parsed = parse(document.getText(), { language: languageOf(document.uri, document.languageId) });
    this.open.set(key, { uri: document.uri, version: document.version, text: document, parsed, declared: false });
    this.onDisk.delete(key);
  }

  /** Brings an open document's current version into the index (a no-op for a version already
   * there). Returns whether the index changed. */
  sync(document: TextDocument): boolean {
    this.parseOnly(document);
    const key = canonicalUri(document.uri);
    const model = this.open.get(key)!;
    if (model.declared) return false;
    model.declared = true;
    if (this.isLibrary(key)) return false; // library documents are read from the folder
    this.index.update(key, model.parsed.document);
    return true;
  }

  /** An editor closed the document: the file on disk takes its place, if it is a workspace file. */
  close(uri: string): void {
    const key = canonicalUri(uri);
    if (!this.open.delete(key)) return;
    this.dependencies.delete(key);
    if (this.isLibrary(key)) return;
    const path = pathOf(key);
    const file = path && this.inWorkspace(path) ? this.files.load(path) : null;
    if (file) {
      this.onDisk.set(key, file);
      this.index.update(key, file.parsed.document);
    } else {
      this.onDisk.delete(key);
      this.index.remove(key);
    }
  }

  parsedOf(uri: string): ParseResult | null {
    return this.open.get(canonicalUri(uri))?.parsed ?? null;
  }

  /** Unresolved names of an open document. A library file's are shown only while its text is the
   * one read from the folder (the index holds that text). */
  nameDiagnostics(uri: string): NameDiagnostic[] {
    const key = canonicalUri(uri);
    const model = this.open.get(key);
    if (!model) return [];
    if (this.isLibrary(key) && this.library!.files.get(key)!.text !== model.text.getText()) return [];
    return this.resolved(key);
  }

  private resolved(key: string): NameDiagnostic[] {
    const found = this.index.diagnostics(key);
    const documents = new Set<string>();
    for (const reference of this.index.references(key)) {
      for (const target of reference.targets) if (target.document) documents.add(target.document);
    }
    this.dependencies.set(key, { documents, anyDocument: found.length > 0 });
    return found;
  }

  /** Syntax errors and unresolved names of a workspace file no editor has open (null when it is
   * open, or not a workspace file). */
  fileDiagnostics(key: string): { text: TextDocument; syntax: readonly { message: string; range: SourceRange }[]; names: NameDiagnostic[] } | null {
    const file = this.open.has(key) ? undefined : this.onDisk.get(key);
    if (!file) return null;
    return { text: file.lines(), syntax: file.parsed.errors, names: this.resolved(key) };
  }

  /** Whether `uri` is a workspace file on disk that no editor has open. */
  isClosedFile(uri: string): boolean {
    const key = canonicalUri(uri);
    return this.onDisk.has(key) && !this.open.has(key);
  }

  /** Documents whose names may resolve differently after `changed` changed: open ones (URIs as the
   * client spells them) and closed workspace files. A document not checked yet counts too. */
  dependentsOf(changed: readonly string[]): { open: string[]; closed: string[] } {
    const keys = new Set(changed.map(canonicalUri));
    const depends = (key: string): boolean => {
      if (keys.has(key)) return false;
      const deps = this.dependencies.get(key);
      return !deps || deps.anyDocument || [...keys].some((k) => deps.documents.has(k));
    };
    const open = [...this.open].filter(([key]) => depends(key)).map(([, model]) => model.uri);
    const closed = [...this.onDisk.keys()].filter((key) => !this.open.has(key) && depends(key));
    return { open, closed };
  }

  /** The workspace files on disk no editor has open (URIs). */
  closedFiles(): string[] {
    return [...this.onDisk.keys()].filter((key) => !this.open.has(key));
  }

  /** Every open document (URIs as the client spells them). */
  openUris(): string[] {
    return [...this.open.values()].map((model) => model.uri);
  }

  /** The reference at `offset` of an open document, with what it resolves to. */
  referenceAt(uri: string, offset: number): ResolvedReference | null {
    const key = canonicalUri(uri);
    if (!this.open.has(key)) return null;
    return this.index.referenceAt(key, offset);
  }

  /** Declarations at `offset`: a reference's targets, or the declaration named there. */
  declarationsAt(uri: string, offset: number): Declaration[] {
    return this.index.lookupAt(canonicalUri(uri), offset).map((info) => info.declaration);
  }

  /** Declarations of an open document, in order. */
  declarationsIn(uri: string): readonly Declaration[] {
    return this.index.declarationsIn(canonicalUri(uri));
  }

  /** Where a declaration is written (its name when it has one); null for built-in names. */
  locationOf(d: Declaration): Location | null {
    const range = d.nameRange ?? d.range;
    if (!d.document || !range) return null;
    const text = this.textOf(d.document);
    if (!text) return null;
    return { uri: this.open.get(d.document)?.uri ?? d.document, range: rangeIn(text, range) };
  }

  /** Where a declaration is written, whole and by name, for a link from `origin` (the reference). */
  linkTo(d: Declaration, origin: Range | undefined): LocationLink | null {
    const name = this.locationOf(d);
    if (!name || !d.range) return null;
    const whole = rangeIn(this.textOf(d.document!)!, d.range);
    return { targetUri: name.uri, targetRange: whole, targetSelectionRange: name.range, ...(origin ? { originSelectionRange: origin } : {}) };
  }

  /** The text of a document in the index: the editor's when open, else the file's. */
  textOf(key: string): TextDocument | null {
    const open = this.open.get(key);
    if (open && !this.isLibrary(key)) return open.text;
    const file = this.onDisk.get(key) ?? this.library?.files.get(key);
    return file ? file.lines() : null;
  }

  /** The workspace's files on disk that no editor has open. */
  diskFiles(): ModelFile[] {
    return [...this.onDisk.values()].filter((file) => !this.open.has(file.uri));
  }
}

export function rangeIn(text: TextDocument, range: Pick<SourceRange, 'start' | 'end'>): Range {
  return { start: text.positionAt(range.start), end: text.positionAt(range.end) };
}
