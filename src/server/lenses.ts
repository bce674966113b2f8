// `Ask:` code lenses: above each declaration whose kind some configured engine lists in `subjects`,
// one lens per question kind those engines answer.
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

/** Lenses of one document: declarations written with a name (not unnamed redefinitions, nor
 * members of unnamed scopes, which a question cannot name). */
export function askLenses(uri: string, text: TextDocument, declarations: readonly Declaration[],
  kindsBySubject: ReadonlyMap<string, readonly string[]>): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const d of declarations) {
    const kinds = kindsBySubject.get(d.kind);
    if (!kinds || kinds.length === 0 || !d.nameRange || !d.range) continue;
    const subject = d.qualifiedName;
    if (subject.includes('<unnamed>')) continue;
    const start = text.positionAt(d.range.start);
    const range = { start, end: start };
    for (const kind of kinds) {
      const args: AskLensArguments = { uri, subject, kind };
      lenses.push({ range, command: { title: `Ask: ${kind}`, command: ASK_COMMAND, arguments: [args] } });
    }
  }
  return lenses;
}
