// The model a question is asked of, and the choices the Ask flow offers from it: which documents are
// sent, which declarations can be subjects (the one at the cursor first), which question kinds the
// engines answer about a subject, and the subject's constraints. Pure: no vscode, no processes.
import type { EngineCheck, EngineEntry } from '../../host';
import { QUESTION_KINDS, type QuestionKind, type SourceDocument } from '../../protocol';
import { languageOfPath, parse } from '../../sysml/parser';
import { resolveDocuments, type Declaration, type Workspace } from '../../sysml/names';
import { unitOfType, type Parameter } from './askInputs';
import { kindsThatFit } from '../../server/lenses';

/** Files the model is made of. */
export function isModelPath(path: string): boolean {
  return /\.(sysml|kerml)$/i.test(path);
}

/**
 * The documents sent with a question: every model file of the workspace, with the text of the open
 * document where one is open (unsaved edits included), then open model documents that are not
 * workspace files (untitled ones, files outside the folder). Sorted by path within each group so
 * that the same workspace gives the same model.
 */
export async function modelDocuments(
  open: readonly SourceDocument[],
  workspaceFiles: readonly string[],
  read: (path: string) => Promise<string | undefined>,
): Promise<SourceDocument[]> {
  const openByPath = new Map(open.map((d) => [d.path, d.text]));
  const onDisk = [...new Set(workspaceFiles.filter(isModelPath))].sort();
  const documents: SourceDocument[] = [];
  const texts = await Promise.all(onDisk.map(async (path) => openByPath.get(path) ?? read(path)));
  onDisk.forEach((path, i) => {
    const text = texts[i];
    if (text !== undefined) documents.push({ path, text });
  });
  const listed = new Set(onDisk);
  for (const d of [...open].sort((a, b) => a.path.localeCompare(b.path))) {
    if (!listed.has(d.path)) documents.push({ path: d.path, text: d.text });
  }
  return documents;
}

/** A declaration that can be a question's subject. */
export interface SubjectChoice {
  qualifiedName: string;
  /** As manifests spell it (keyword without `def`). */
  kind: string;
  isDefinition: boolean;
  /** The document's path as sent in the model. */
  path: string;
  /** Offsets (0-based, end exclusive) and the 1-based line of the whole declaration and of its name. */
  range: { start: number; end: number; line: number };
  nameRange: { start: number; end: number; line: number; column: number; endLine: number; endColumn: number };
}

/** Declaration kinds that are never a question's subject, whatever an engine lists. */
const NOT_SUBJECTS = new Set(['root', 'package', 'alias', 'import', 'body', 'succession', 'transition', 'accept', 'send', 'assign',
  'if', 'while', 'loop', 'for', 'terminate', 'comment', 'doc', 'metadata', 'dependency']);

/** The declarations of a set of documents, parsed and resolved once. */
export class ModelOutline {
  private readonly index: Workspace;
  private readonly paths: string[];
  private readonly texts: Map<string, string>;

  constructor(documents: readonly SourceDocument[]) {
    this.paths = documents.map((d) => d.path);
    this.texts = new Map(documents.map((d) => [d.path, d.text]));
    const parsed = documents.map((d) => ({ uri: d.path, document: parse(d.text, { language: languageOfPath(d.path) }).document }));
    this.index = resolveDocuments(parsed).index;
  }

  /** Every named declaration of a kind in `kinds` (all subject kinds when undefined), in document order. */
  subjects(kinds?: ReadonlySet<string>): SubjectChoice[] {
    const out: SubjectChoice[] = [];
    for (const path of this.paths) {
      for (const d of this.index.declarationsIn(path)) {
        const choice = choiceOf(d, path);
        if (choice && (kinds ? kinds.has(choice.kind) : true)) out.push(choice);
      }
    }
    return out;
  }

  /** The innermost subject declaration around `offset` in the document at `path` (of a kind in `kinds`). */
  subjectAt(path: string, offset: number, kinds?: ReadonlySet<string>): SubjectChoice | undefined {
    let best: SubjectChoice | undefined;
    for (const d of this.index.declarationsIn(path)) {
      const choice = choiceOf(d, path);
      if (!choice || (kinds && !kinds.has(choice.kind))) continue;
      if (choice.range.start <= offset && offset <= choice.range.end) {
        if (!best || choice.range.end - choice.range.start <= best.range.end - best.range.start) best = choice;
      }
    }
    return best;
  }

  /** Where a subject is declared (several places when the model declares the name more than once). */
  locate(subject: string): SubjectChoice[] {
    return this.index.declarationsOf(subject)
      .map((info) => (info.document !== null ? choiceOf(info.declaration, info.document) : undefined))
      .filter((c): c is SubjectChoice => c !== undefined);
  }

  /**
   * The inputs a compute or sweep question binds: the `in` (and `inout`) features the subject declares
   * or inherits from its types, each once (the nearest declaration wins), with type, unit and default.
   */
  parametersOf(subject: string): Parameter[] {
    const out: Parameter[] = [];
    for (const info of this.index.declarationsOf(subject)) {
      for (const owner of [info.declaration, ...this.index.supertypes(info.declaration)]) {
        for (const member of owner.members) {
          const node = member.node;
          if (!node || node.kind !== 'Usage' || member.name === null || out.some((p) => p.name === member.name)) continue;
          if (node.direction !== 'in' && node.direction !== 'inout') continue;
          // `in m = 1000 [kg]` binds the parameter: the model fixes it, so it is not an input to ask for
          // (the engine refuses a binding that contradicts it). `default` and `:=` leave it open.
          if (node.value && !node.value.isDefault && !node.value.isInitial) continue;
          const parameter: Parameter = { name: member.name };
          const typing = node.relations.find((r) => r.relation === 'typing')?.target
            ?? node.relations.find((r) => (r.relation === 'subsetting' || r.relation === 'redefinition') && r.target.kind === 'QualifiedName' && unitOfType(r.target.segments.join('::')))?.target;
          if (typing?.kind === 'QualifiedName') parameter.type = typing.segments.join('::');
          const unit = unitOfType(parameter.type);
          if (unit) parameter.unit = unit;
          const text = member.document !== null ? this.texts.get(member.document) : undefined;
          if (node.value && text !== undefined) {
            parameter.defaultText = text.slice(node.value.range.start, node.value.range.end).replace(/^\s*(:=|=|default\s*=?)\s*/, '').trim();
          }
          out.push(parameter);
        }
      }
    }
    return out;
  }

  /** The question kinds that fit the subject, best first (undefined when the model does not declare it once). */
  kindsThatFit(subject: string): string[] | undefined {
    const found = this.index.declarationsOf(subject);
    return found.length === 1 ? kindsThatFit(found[0]!.declaration).all : undefined;
  }

  /** Names of the constraints the subject declares or inherits from its types, in order, without repeats. */
  constraintsOf(subject: string): string[] {
    const names: string[] = [];
    for (const info of this.index.declarationsOf(subject)) {
      const owners = [info.declaration, ...this.index.supertypes(info.declaration)];
      for (const owner of owners) {
        for (const member of owner.members) {
          if (member.kind === 'constraint' && member.name !== null && !names.includes(member.name)) names.push(member.name);
        }
      }
    }
    return names;
  }
}

function choiceOf(d: Declaration, path: string): SubjectChoice | undefined {
  if (NOT_SUBJECTS.has(d.kind) || d.layer !== 'user' || !d.range || !d.nameRange || d.name === null) return undefined;
  const qualifiedName = d.qualifiedName;
  if (qualifiedName.includes('<unnamed>')) return undefined;
  const n = d.nameRange;
  return {
    qualifiedName,
    kind: d.kind,
    isDefinition: d.isDefinition,
    path,
    range: { start: d.range.start, end: d.range.end, line: d.range.line },
    nameRange: { start: n.start, end: n.end, line: n.line, column: n.column, endLine: n.endLine, endColumn: n.endColumn },
  };
}

/** Subject kinds some engine takes: undefined when an engine takes any kind (lists no `subjects`). */
export function subjectKinds(entries: readonly EngineEntry[]): Set<string> | undefined {
  const kinds = new Set<string>();
  for (const entry of entries) {
    if (!entry.subjects) return undefined;
    for (const kind of entry.subjects) kinds.add(kind);
  }
  return kinds;
}

/** Whether an entry (as declared) could answer a question of `kind` about a subject of `subjectKind`. */
export function entryFits(entry: EngineEntry, kind: string, subjectKind: string | undefined): boolean {
  if (entry.answers && !(entry.answers as readonly string[]).includes(kind)) return false;
  if (entry.subjects && subjectKind !== undefined && !entry.subjects.includes(subjectKind)) return false;
  if (entry.model && !entry.model.some((form) => form === 'sources' || form === 'graphs:1')) return false;
  return true;
}

/** The question kinds some engine answers about a subject of this kind, in the engines' order. */
export function kindsFor(entries: readonly EngineEntry[], subjectKind: string | undefined): QuestionKind[] {
  const kinds: QuestionKind[] = [];
  for (const entry of entries) {
    for (const kind of entry.answers ?? QUESTION_KINDS) {
      if (!kinds.includes(kind) && entryFits(entry, kind, subjectKind)) kinds.push(kind);
    }
  }
  return kinds;
}

/** The engines that could take the question, in settings order. */
export function enginesFor(entries: readonly EngineEntry[], kind: string, subjectKind: string | undefined): EngineEntry[] {
  return entries.filter((entry) => entryFits(entry, kind, subjectKind));
}

/** The candidates the engine pick offers: those whose start and describe check did not fail, and, apart,
 * those that cannot start with why (an engine never checked is offered: the run says if it fails). */
export function startableEngines(candidates: readonly EngineEntry[], checks: readonly EngineCheck[]): { offered: EngineEntry[]; cannotStart: { name: string; problem: string }[] } {
  const offered: EngineEntry[] = [];
  const cannotStart: { name: string; problem: string }[] = [];
  for (const entry of candidates) {
    const check = checks.find((c) => c.name === entry.name);
    if (check && !check.ok) cannotStart.push({ name: entry.name, problem: check.problem ?? 'its describe check failed' });
    else offered.push(entry);
  }
  return { offered, cannotStart };
}

/** Kinds asked about a behaviour under a scheduling policy. */
export const BEHAVIOUR_KINDS: readonly QuestionKind[] = ['holds', 'outcomes', 'sensitive'];
/** Kinds that take a condition (`question.condition`). */
export const CONDITION_KINDS: readonly QuestionKind[] = ['holds'];

/** What each kind asks, for the kind picker. */
export const KIND_DESCRIPTIONS: Record<QuestionKind, string> = {
  evaluate: 'the value of an expression or feature',
  outcomes: 'which end states the behaviour can reach',
  holds: 'whether a condition holds after every move',
  sensitive: 'whether the outcome depends on the schedule',
  satisfiable: 'whether the constraints can all be met, and with which values',
  sweep: 'a table of values over ranges of parameters',
  compute: 'the value of a calculation for given inputs',
};

/** What each scheduling policy does, for the schedule picker. */
export const SCHEDULE_DESCRIPTIONS: Record<string, string> = {
  fifo: 'first enabled move in model order',
  lifo: 'last enabled move first',
  all: 'every interleaving',
};
