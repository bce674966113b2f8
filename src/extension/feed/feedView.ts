import * as vscode from 'vscode';
import type { Post } from '../../feed/shapes';

/** The tree item context values the menus in package.json select on: own posts can be edited and deleted. */
export const POST_CONTEXT = { own: 'assay.feed.post.own', other: 'assay.feed.post' } as const;

/** A row of the Team Feed view; commands on rows receive it. */
export interface FeedNode {
  post: string;
}

/** Where the view stands: what the session (feedSession.ts, loaded on first use) last told it. */
export interface FeedViewState {
  posts: Post[];
  /** The signed-in user's id (own posts get edit and delete). */
  me?: string;
  /** A line over the list: offline, signed out, loading… (undefined: nothing to say). */
  message?: string;
}

function iconOf(post: Post): vscode.ThemeIcon {
  const run = post.run;
  if (!run) return new vscode.ThemeIcon('comment');
  const claim = run.result.claim;
  if (run.standing.strength === 'not covered') return new vscode.ThemeIcon('circle-slash');
  if (claim === 'violated' || claim === 'unsatisfiable') return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
  if (claim === 'sensitive' || claim === 'unbounded' || claim === 'none') return new vscode.ThemeIcon('warning');
  return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
}

/** "3 min ago", "yesterday 14:02"… short enough for a tree row. */
export function ago(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  if (ms < 60_000) return 'just now';
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/**
 * The Team Feed view: the feed's posts newest first (title; author, time, question and standing; an icon
 * for the claim). Live changes come from the session; the view only draws.
 */
export class FeedTree implements vscode.TreeDataProvider<FeedNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<FeedNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private state: FeedViewState = { posts: [] };

  set(state: FeedViewState): void {
    this.state = state;
    this.changed.fire(undefined);
  }

  get current(): FeedViewState {
    return this.state;
  }

  post(id: string): Post | undefined {
    return this.state.posts.find((p) => p.id === id);
  }

  getTreeItem(node: FeedNode): vscode.TreeItem {
    const post = this.post(node.post);
    if (!post) return new vscode.TreeItem('(deleted)');
    const item = new vscode.TreeItem(post.title, vscode.TreeItemCollapsibleState.None);
    item.id = `post-${post.id}`;
    const run = post.run;
    const standing = run ? (run.standing.claimed !== run.standing.strength ? `${run.result.claim}, ${run.standing.claimed} → ${run.standing.strength}` : `${run.result.claim}, ${run.standing.strength}`) : undefined;
    item.description = [post.author.username, ago(post.createdAt), run ? `${run.question.kind} ${run.question.subject.split('::').at(-1)}` : undefined].filter(Boolean).join(' · ');
    item.iconPath = iconOf(post);
    item.contextValue = post.author.id === this.state.me ? POST_CONTEXT.own : POST_CONTEXT.other;
    item.accessibilityInformation = { label: `${post.title} by ${post.author.username}${standing ? `: ${standing}` : ''}` };
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(post.title)}**  \n`);
    tooltip.appendMarkdown(`${escape(post.author.username)}, ${new Date(post.createdAt).toLocaleString()}${post.updatedAt !== post.createdAt ? ` (edited ${new Date(post.updatedAt).toLocaleString()})` : ''}  \n`);
    if (run) tooltip.appendMarkdown(`\`${escape(run.question.kind)} ${escape(run.question.subject)}\` — ${escape(standing!)} (${escape(run.engine)})  \n`);
    if (post.body) tooltip.appendMarkdown(`\n${escape(post.body)}`);
    item.tooltip = tooltip;
    if (run) item.command = { command: 'assay.feed.open', title: 'Open Shared Run', arguments: [{ post: post.id } satisfies FeedNode] };
    return item;
  }

  getChildren(node?: FeedNode): FeedNode[] {
    return node ? [] : this.state.posts.map((p) => ({ post: p.id }));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Text from a post shown as Markdown: the team's words are text, never markup or links. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
