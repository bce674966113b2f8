// Code lenses: above each definition or usage declared directly in a package whose kind some configured
// engine lists in `subjects`, one `Ask…` lens (the kind pick) and the one or two question kinds that fit
// the declaration (holds and outcomes for a behaviour, compute and sweep for a calc, …) — not all seven
// over every feature. Also the kinds the Ask flow offers for a subject, fitting ones first.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeLens } from 'vscode-languageserver/node';
import type { Declaration } from '../sysml/names';
import type { AskLensArguments, EngineAnswersParams } from './requests';

/** The command a lens runs (contributed by the extension). */
export const ASK_COMMAND = 'assay.ask';

/** For each subject kind, the question kinds some engine answers about it, in the order the
 * engines list them. */
export function questionKindsBySubject(engines: EngineAnswersParams['engines']): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  for (const engine of engines) {
    // The notification crosses a process boundary: read only well-formed parts of it.
    const answers = strings(engine?.answers);
    for (const subject of strings(engine?.subjects)) {
      const kinds = out.get(subject) ?? [];
      for (const kind of answers) if (!kinds.includes(kind)) kinds.push(kind);
      out.set(subject, kinds);
    }
  }
  return out;
}

const BEHAVIOUR_SUBJECTS = new Set(['state', 'action']);
const CALC_SUBJECTS = new Set(['calc', 'analysis', 'verification', 'case']);
const HOLDERS = new Set(['part', 'item', 'occurrence']);

/** Whether a declaration has behaviour: is a state or action, or a part that exhibits or performs one (itself or through its parts). */
function hasBehaviour(d: Declaration, depth = 0): boolean {
  if (BEHAVIOUR_SUBJECTS.has(d.kind)) return true;
  return HOLDERS.has(d.kind) && depth < 4 && d.members.some((m) => hasBehaviour(m, depth + 1));
}

function hasConstraints(d: Declaration): boolean {
  return d.kind === 'constraint' || d.kind === 'requirement' || d.members.some((m) => m.kind === 'constraint');
}

/**
 * The question kinds that fit a declaration, best first: `lens`, its one or two lens kinds; `all`, every
 * kind a question about it can be (the bundled engine refuses behaviour kinds about a calc, constraint or
 * attribute, and compute or sweep about a part). A part whose behaviour comes only through its types
 * keeps the behaviour kinds, after the ones that fit.
 */
export function kindsThatFit(d: Pick<Declaration, 'kind' | 'members'>): { lens: string[]; all: string[] } {
  const decl = d as Declaration;
  const constraints = hasConstraints(decl);
  if (hasBehaviour(decl)) return { lens: ['holds', 'outcomes'], all: ['holds', 'outcomes', 'sensitive', 'evaluate', ...(constraints ? ['satisfiable'] : [])] };
  if (CALC_SUBJECTS.has(d.kind)) return { lens: ['compute', 'sweep'], all: ['compute', 'sweep', 'evaluate'] };
  if (d.kind === 'constraint' || d.kind === 'requirement') return { lens: ['satisfiable'], all: ['satisfiable', 'evaluate', 'compute', 'sweep'] };
  if (d.kind === 'attribute') return { lens: ['evaluate'], all: ['evaluate', 'compute', 'sweep'] };
  const first = constraints ? ['satisfiable', 'evaluate'] : ['evaluate', 'satisfiable'];
  return { lens: [first[0]!], all: [...first, 'holds', 'outcomes', 'sensitive'] };
}

/** Lenses of one document: definitions and usages declared directly in a package (or at the top),
 * written with a name, whose kind some engine takes: `Ask…` and the kinds that fit and are answered. */
export function askLenses(uri: string, text: TextDocument, declarations: readonly Declaration[],
  kindsBySubject: ReadonlyMap<string, readonly string[]>): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const d of declarations) {
    const kinds = kindsBySubject.get(d.kind);
    if (!kinds || kinds.length === 0 || !d.nameRange || !d.range) continue;
    // Features of a definition are asked about through their owner (or from the palette): one row of lenses per top declaration.
    if (d.parent && d.parent.kind !== 'package' && d.parent.kind !== 'root') continue;
    const subject = d.qualifiedName;
    if (subject.includes('<unnamed>')) continue;
    const start = text.positionAt(d.range.start);
    const range = { start, end: start };
    const ask: AskLensArguments = { uri, subject };
    lenses.push({ range, command: { title: 'Ask…', command: ASK_COMMAND, arguments: [ask] } });
    for (const kind of kindsThatFit(d).lens.filter((k) => kinds.includes(k))) {
      const args: AskLensArguments = { uri, subject, kind };
      lenses.push({ range, command: { title: `Ask: ${kind}`, command: ASK_COMMAND, arguments: [args] } });
    }
  }
  return lenses;
}
