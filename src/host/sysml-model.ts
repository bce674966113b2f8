// The host's view of a model through the SysML front end: the subject's kind for routing
// (`question.subjectKind`), `graphs:1` lowering, and the re-check of behaviour witnesses by replay.
import type { Graphs, Model, Question, RunResult, SourceDocument } from '../protocol';
import { parse, languageOfPath } from '../sysml/parser';
import { subjectKindOf, Workspace } from '../sysml/names';
import { lowerToGraphs } from '../sysml/lower';
import { BehaviorError, prepareBehavior, recheckAnswer, type BehaviorDocument, type BehaviorQuestion } from '../sysml/behavior';
import type { ModelIndex } from './host';
import type { WitnessChecker } from './standing';
import { checkAssignment, unknownWitnessFeature, type WitnessVerdict } from './assignment-check';

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
    // Indexed, not resolved: routing needs only the subject's declaration, and lowering resolves the
    // references it reads on demand (resolving every document first cost most of the host's time).
    const index = new Workspace();
    for (const d of parsed) index.update(d.path, d.document);
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

  /**
   * Re-checks the witness of an answer: a behaviour answer's schedules by replay, a `satisfiable`
   * assignment by evaluating its assertions with the witness's values. A witness the host's own
   * semantics cannot check is `unchecked` (the answer stands at most observed), never waved through.
   */
  async check(question: Question, result: RunResult, model: Model): Promise<WitnessVerdict> {
    const documents = model.sources?.documents;
    if (!documents) return { ok: 'unchecked', reason: 'the model was sent as graphs:1, which the host cannot re-check' };
    // `unbounded` carries a feasible point too: its feasibility is checked, the objective's unboundedness is not.
    if (question.kind === 'satisfiable' && (result.claim === 'satisfiable' || result.claim === 'unbounded')) return checkAssignment(question, result, documents);
    const kind = question.kind;
    if ((kind !== 'holds' && kind !== 'outcomes' && kind !== 'sensitive') || (result.claim !== 'violated' && result.claim !== 'outcomes' && result.claim !== 'sensitive')) {
      return { ok: 'unchecked', reason: `the host has no check for a ${result.claim} witness of a ${kind} question` };
    }
    const m = this.model(documents);
    if (m.index.declarationsOf(question.subject).length === 0) return { ok: false, reason: `the subject ${question.subject} is not declared in the model` };
    const prepared = prepareBehavior(m.documents, question as BehaviorQuestion);
    if (prepared instanceof BehaviorError) {
      const unknown = unknownWitnessFeature(question, result, documents);
      if (unknown) return { ok: false, reason: unknown };
      return { ok: 'unchecked', reason: `the host's semantics cannot execute the model: ${prepared.text}` };
    }
    const recheck = recheckAnswer(m.documents, question as BehaviorQuestion, result as never);
    if (recheck.ok) return { ok: true };
    if (recheck.unchecked) return { ok: 'unchecked', reason: `the host's replay stopped: ${recheck.reason}` };
    return { ok: false, reason: recheck.reason };
  }
}
