// The posts a client shows, newest first, kept from a loaded list plus live changes. Changes may come
// twice or out of order (a replay interleaved with live events, a list loaded while events arrive), so
// each post keeps the seq it was last changed at and a deletion leaves a tombstone.
import type { Change, Post } from '../feed/shapes';

export class FeedPosts {
  private readonly byId = new Map<string, { post: Post; seq: number }>();
  private readonly deleted = new Map<string, number>();

  /** Replaces the list with a freshly loaded one (changes seen meanwhile still count). */
  reset(posts: readonly Post[]): void {
    const kept = new Map(this.byId);
    this.byId.clear();
    for (const post of posts) {
      if (this.deleted.has(post.id)) continue;
      const live = kept.get(post.id);
      // A live change newer than the list's copy wins.
      this.byId.set(post.id, live && live.seq >= 0 && live.post.updatedAt >= post.updatedAt ? live : { post, seq: -1 });
    }
    // Posts created live after the list was read are not in it yet.
    for (const [id, entry] of kept) if (!this.byId.has(id) && entry.seq >= 0) this.byId.set(id, entry);
  }

  /** Applies a live change; true when the list changed. */
  apply(change: Change): boolean {
    if (change.type === 'post:deleted') {
      this.deleted.set(change.id, change.seq);
      return this.byId.delete(change.id);
    }
    const { post, seq } = change;
    const gone = this.deleted.get(post.id);
    if (gone !== undefined && gone > seq) return false;
    const known = this.byId.get(post.id);
    if (known && known.seq > seq) return false;
    this.byId.set(post.id, { post, seq });
    return true;
  }

  get(id: string): Post | undefined {
    return this.byId.get(id)?.post;
  }

  /** Newest first (creation time, then id, as the server pages them). */
  list(): Post[] {
    return [...this.byId.values()]
      .map((e) => e.post)
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
  }

  get size(): number {
    return this.byId.size;
  }
}
