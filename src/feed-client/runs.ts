// An editor run ↔ a post. Sharing maps a run record (src/extension/runs/runRecord.ts, structurally: this
// folder may not import vscode) to the post it becomes; opening maps a post back to what the witness panel
// shows. Both go through shapes.ts's runOfRecord, so a shared run opens as the same witness.
import { modelHash, PostCreate, runOfRecord, type Post, type Run } from '../feed/shapes';
import type { Question, RunResult, SourceDocument } from '../protocol';

/** The parts of an editor RunRecord a post is made of. */
export interface ShareableRecord {
  id: number;
  question: Question;
  documents: SourceDocument[];
  state: string;
  outcome?: { status: string; engine?: string; result?: RunResult; standing?: { claimed: Run['standing']['claimed']; strength: Run['standing']['strength']; reasons: string[] } };
  askedAt: number;
  elapsedMs?: number;
}

export interface ShareInput {
  title: string;
  note?: string;
  /**
   * The path a document is shared under (default: as it is). The editor gives workspace-relative paths,
   * so that a teammate's workspace resolves them and a user's home folder is not published.
   */
  pathOf?: (path: string) => string;
}

/** Why a run cannot be shared, or undefined when it can. */
export function unshareable(record: ShareableRecord): string | undefined {
  if (record.state !== 'settled' || !record.outcome) return `run ${record.id} has not finished yet`;
  if (record.outcome.status !== 'answered') return `run ${record.id} has no answer to share (${record.outcome.status})`;
  return undefined;
}

/** The post a run record becomes; throws with the reason when the run cannot be shared or the input does not fit. */
export function postOfRecord(record: ShareableRecord, input: ShareInput): PostCreate {
  const why = unshareable(record);
  if (why) throw new Error(why);
  const pathOf = input.pathOf ?? ((p: string) => p);
  const run = runOfRecord({ ...record, documents: record.documents.map((d) => ({ path: pathOf(d.path), text: d.text })) });
  if (!run) throw new Error(`run ${record.id} has no answer to share`);
  const parsed = PostCreate.safeParse({ title: input.title, body: input.note ?? '', run });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || 'post'}: ${issue.message}`);
  }
  return parsed.data;
}

/** How the local model compares with the one a run was shared about. */
export type ModelComparison =
  | { state: 'same' }
  /** Paths whose local text differs, and paths missing locally. */
  | { state: 'changed'; changed: string[]; missing: string[]; localHash?: string };

/** Compares a shared model with the local texts at the same paths (`read` answers undefined for a missing file). */
export function compareModel(shared: { documents: SourceDocument[]; hash?: string }, read: (path: string) => string | undefined): ModelComparison {
  const local = shared.documents.map((d) => ({ path: d.path, text: read(d.path) }));
  const missing = local.filter((d) => d.text === undefined).map((d) => d.path);
  if (missing.length > 0) return { state: 'changed', changed: [], missing };
  const docs = local as SourceDocument[];
  const localHash = modelHash(docs);
  if (localHash === (shared.hash ?? modelHash(shared.documents))) return { state: 'same' };
  const changed = docs.filter((d, i) => d.text !== shared.documents[i]!.text).map((d) => d.path);
  return { state: 'changed', changed, missing: [], localHash };
}

/** What the witness panel opens for a post: the run as the editor's witness source, and who shared it. */
export interface SharedWitness {
  question: Question;
  result: RunResult;
  documents: SourceDocument[];
  engine: string;
  standing: Run['standing'];
  post: { id: string; title: string; note: string; author: string; createdAt: string; hash: string };
}

/** The witness a post opens, or the reason it has none (a post without a run). */
export function witnessOfPost(post: Post): SharedWitness | string {
  const run = post.run;
  if (!run) return `"${post.title}" by ${post.author.username} carries no run to open`;
  return {
    question: run.question,
    result: run.result,
    documents: run.model.documents,
    engine: run.engine,
    standing: run.standing,
    post: { id: post.id, title: post.title, note: post.body, author: post.author.username, createdAt: post.createdAt, hash: run.model.hash ?? modelHash(run.model.documents) },
  };
}
