// Stored rows as the wire shapes of shapes.ts.
import type { Post, Run, User } from './shapes';
import type { PostRow, UserRow } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

export function toUser(row: UserRow): User {
  return { id: row.id, username: row.username, createdAt: iso(row.created_at) };
}

export function toPost(row: PostRow): Post {
  return {
    id: row.id,
    author: { id: row.author_id, username: row.author_name },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    title: row.title,
    body: row.body,
    ...(row.run !== null ? { run: JSON.parse(row.run) as Run } : {}),
  };
}
