// Comments on a profile (DESIGN.md "Other screens"): anyone reads the comments of a listed profile
// whose owner has comments on; signed-in users post; the profile's owner and admins delete.
import { COMMENTS_PAGE_SIZE, type CommentsPage } from '#shared/schemas/comments.ts';
import type { AppContext } from '../../context';
import { forbidden, notFound } from '../../lib/errors';
import * as policy from '../../policies';
import type { SessionUser } from '../../plugins/session';
import { presentComment } from './comments.presenter';
import * as repo from './comments.repo';
import { msg } from '#shared/api/messages.ts';

const moderates = (viewer: SessionUser | null, profileId: number) =>
  policy.can(viewer, 'moderate', policy.comments(profileId));

/** The profile, when the viewer may see it: listed, or the viewer is its owner or an admin. */
async function visibleTarget(ctx: AppContext, profileId: number, viewer: SessionUser | null) {
  const target = await repo.findTarget(ctx.db, profileId);
  if (!target || (!target.listed && !moderates(viewer, profileId))) throw notFound(msg('directory.profileNotFound'));
  return target;
}

export async function listComments(
  ctx: AppContext,
  profileId: number,
  viewer: SessionUser | null,
  page: number,
): Promise<CommentsPage> {
  const target = await visibleTarget(ctx, profileId, viewer);
  const enabled = target.comments_enabled;
  const base = { page, enabled, can_comment: enabled && !!viewer };
  // Comments off hides them from the public; the owner and admins still see them to clean up.
  if (!enabled && !moderates(viewer, profileId)) return { ...base, data: [], has_more: false, total: 0 };
  const offset = (page - 1) * COMMENTS_PAGE_SIZE;
  const [rows, total] = await Promise.all([
    repo.listComments(ctx.db, profileId, COMMENTS_PAGE_SIZE + 1, offset),
    repo.countComments(ctx.db, profileId),
  ]);
  return {
    ...base,
    data: rows.slice(0, COMMENTS_PAGE_SIZE).map((row) => presentComment(row, moderates(viewer, row.profile_id))),
    has_more: rows.length > COMMENTS_PAGE_SIZE,
    total,
  };
}

export async function postComment(ctx: AppContext, profileId: number, viewer: SessionUser, body: string) {
  const target = await visibleTarget(ctx, profileId, viewer);
  if (!target.comments_enabled) throw forbidden(msg('comments.off'));
  const row = await repo.insertComment(ctx.db, { profileId, authorId: viewer.id, body, now: ctx.now() });
  return { data: presentComment(row, moderates(viewer, row.profile_id)) };
}

export async function deleteComment(ctx: AppContext, commentId: number, viewer: SessionUser) {
  const comment = await repo.findComment(ctx.db, commentId);
  if (!comment) throw notFound(msg('comments.notFound'));
  if (!moderates(viewer, comment.profile_id)) throw forbidden(msg('comments.deleteForbidden'));
  if (!(await repo.deleteComment(ctx.db, commentId, ctx.now()))) throw notFound(msg('comments.notFound'));
  return { data: { id: commentId, deleted: true as const } };
}
