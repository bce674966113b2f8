// The host's view of a model through the SysML front end: the subject's kind for routing
// (`question.subjectKind`), `graphs:1` lowering, and the re-check of behaviour witnesses by replay.
import type { Graphs, Model, Question, RunResult, SourceDocument } from '../protocol';
import { parse, languageOfPath } from '../sysml/parser';
import { resolveDocuments, subjectKindOf, type Workspace } from '../sysml/names';
import { lowerToGraphs } from '../sysml/lower';
import { BehaviorError, prepareBehavior, recheckAnswer, type BehaviorDocument, type BehaviorQuestion } from '../sysml/behavior';
import type { ModelIndex } from './host';
import type { WitnessChecker } from './standing';

interface ParsedModel {
  readonly documents: readonly BehaviorDocument[];
  readonly index: Workspace;
  readonly texts: ReadonlyMap<string, string>;
}

/** Parses and indexes a document set once per set (the host asks several things of the same model). */
export class SysmlModel implements ModelIndex, WitnessChecker {
  private cache: { key: readonly SourceDocument[]; model: ParsedModel } | undefined;

  private model(documents: readonly SourceDocument[]): ParsedModel {
    if (this.cache?.key === documents) return this.cache.model;
    const parsed = documents.map((d) => ({ path: d.path, document: parse(d.text, { language: languageOfPath(d.path) }).document }));
    const { index } = resolveDocuments(parsed.map((d) => ({ uri: d.path, document: d.document })));
    const model = { documents: parsed, index, texts: new Map(documents.map((d) => [d.path, d.text])) };
    this.cache = { key: documents, model };
    return model;
  }

  subjectKindOf(subject: string, documents: readonly SourceDocument[]): string | undefined {
    return subjectKindOf(this.model(documents).index, subject);
  }

  lowerToGraphs(subject: string, documents: readonly SourceDocument[]): Graphs | { error: string } {
    const m = this.model(documents);
    const lowered = lowerToGraphs(m.index, subject, { textOf: (uri) => m.texts.get(uri) });
    return lowered.ok ? (lowered.graphs as Graphs) : { error: lowered.message };
  }

  /** Replays the witness of a behaviour answer; other kinds carry no schedule to re-check. */
  async check(question: Question, result: RunResult, model: Model): Promise<{ ok: true } | { ok: false; reason: string }> {
    const kind = question.kind;
    if (kind !== 'holds' && kind !== 'outcomes' && kind !== 'sensitive') return { ok: true };
    if (result.claim !== 'violated' && result.claim !== 'outcomes' && result.claim !== 'sensitive') return { ok: true };
    const documents = model.sources?.documents;
    if (!documents) return { ok: true }; // graphs-only models: nothing the host can replay yet
    const parsed = this.model(documents).documents;
    // A model the host's own semantics cannot execute (a construct only the engine supports) is not
    // evidence against the engine: the host cannot check it, so it does not veto.
    if (prepareBehavior(parsed, question as BehaviorQuestion) instanceof BehaviorError) return { ok: true };
    const recheck = recheckAnswer(parsed, question as BehaviorQuestion, result as never);
    return recheck.ok ? { ok: true } : { ok: false, reason: recheck.reason };
  }
}
