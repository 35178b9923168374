// Comments under a profile (DESIGN.md "Other screens"): everyone reads them while the owner has
// comments on; signed-in users write; the owner and admins delete.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_CHARS } from '#shared/constants.ts';
import type { Profile } from '#shared/schemas/directory.ts';
import { formatAgo } from '#shared/views/format.ts';
import { editHref } from '#shared/views/profile-view.tsx';
import { Link } from 'react-router';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { deleteComment, directoryKeys, postComment, useComments } from './api';
import { confirm, openLoginModal } from '#client/lib/dialogs.ts';

export function Comments({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('directory');
  const id = profile.user_id;
  const show = profile.comments_enabled || profile.can_edit;
  const comments = useComments(id, show);
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const fieldId = useId();
  if (!show) return null;

  const first = comments.data?.pages[0];
  const items = comments.data?.pages.flatMap((page) => page.data) ?? [];
  const canComment = first ? first.can_comment : profile.comments_enabled && !!user;
  const refresh = () => queryClient.invalidateQueries({ queryKey: directoryKeys.comments(id) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = text.trim();
    if (!body || sending) return;
    setSending(true);
    try {
      await postComment(id, body);
      setText('');
      await refresh();
    } catch {
      // The API client showed the error (validation dialog, login modal, notice).
    } finally {
      setSending(false);
    }
  };

  const remove = async (commentId: number) => {
    const yes = await confirm({
      title: t('comments.deleteTitle'),
      confirm: t('comments.delete'),
      cancel: t('common:dialog.cancel'),
    });
    if (!yes) return;
    try {
      await deleteComment(commentId);
      await refresh();
    } catch {
      // Reported by the API client.
    }
  };

  const now = Date.now();
  return (
    <section className="profile__section comments" aria-labelledby={`profile-${id}-comments`} data-testid="comments">
      <div className="profile__section-head">
        <h2 id={`profile-${id}-comments`}>
          {t('comments.heading')}
          {first && first.total > 0 && <span className="comments__total"> ({first.total})</span>}
        </h2>
        {profile.can_edit && (
          <Link
            className="profile__edit"
            to={editHref(id, 'comments')}
            aria-label={t('profile.editLabel', { section: t('profile.sections.comments') })}
          >
            {t('profile.editSection')}
          </Link>
        )}
      </div>
      {!profile.comments_enabled && <p className="muted small">{t('comments.offForOwner')}</p>}

      {comments.isPending ? (
        <InlineSpinner label={t('comments.loading')} />
      ) : items.length === 0 ? (
        <p className="muted">{t('comments.empty')}</p>
      ) : (
        <ol className="comments__list">
          {items.map((comment) => (
            <li key={comment.id} className="comments__item" data-testid="comment">
              <p className="comments__meta">
                <strong>{comment.author.name ?? t('comments.member')}</strong>{' '}
                <time className="muted small" dateTime={comment.created_at}>
                  {formatAgo((now - Date.parse(comment.created_at)) / 1000, i18n.language)}
                </time>
              </p>
              <p className="comments__body">{comment.body}</p>
              {comment.can_delete && (
                <button
                  type="button"
                  className="button button--ghost comments__delete"
                  onClick={() => void remove(comment.id)}
                >
                  {t('comments.delete')}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {comments.hasNextPage && (
        <button
          type="button"
          className="button"
          onClick={() => void comments.fetchNextPage()}
          disabled={comments.isFetchingNextPage}
        >
          {t('comments.more')}
        </button>
      )}

      {canComment ? (
        <form className="comments__form" onSubmit={(event) => void submit(event)}>
          <label htmlFor={fieldId} className="comments__label">
            {t('comments.label')}
          </label>
          <textarea
            id={fieldId}
            className="dir-input comments__input"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={COMMENT_MAX_CHARS}
            rows={3}
            required
          />
          <div className="comments__actions">
            <span className="muted small">{t('comments.rules')}</span>
            <button type="submit" className="button button--primary" disabled={sending || !text.trim()}>
              {t('comments.submit')}
            </button>
          </div>
        </form>
      ) : profile.comments_enabled && !user ? (
        <p className="comments__login">
          <button type="button" className="button" onClick={openLoginModal}>
            {t('comments.loginToComment')}
          </button>
        </p>
      ) : null}
    </section>
  );
}
