// A comment as the API sends it (src/shared/schemas/comments.ts): rows in, answers out; whether the viewer
// may delete it is the policy's answer, given by the service.
import type { Comment } from '#shared/schemas/comments.ts';
import type { CommentRow } from './comments.repo';

export function presentComment(row: CommentRow, canDelete: boolean): Comment {
  return {
    id: row.id,
    profile_id: row.profile_id,
    author: { id: row.author_id, name: row.author_name },
    body: row.body,
    created_at: row.created_at,
    can_delete: canDelete,
  };
}
