// The account's unread notices, where the advertiser looks first (the overview of /edit/{id}, the
// auto-topup screen): what went wrong and where to fix it, until dismissed (marked read). A newer notice
// of the same matter replaces an older one on the server (a verification decided anew).
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { formatDate } from '#shared/views/format.ts';
import { useMarkNoticesRead, useNotices } from './api';
import './notices.css';

/** Shown only to the account itself (an admin looking at someone's screens sees nothing of theirs here). */
export function NoticesPanel({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation('notices');
  const { data: user } = useCurrentUser();
  const own = !!user && user.user_id === userId;
  const notices = useNotices(own);
  const markRead = useMarkNoticesRead();
  const unread = (notices.data?.data ?? []).filter((n) => !n.read);
  if (!own || !unread.length) return null;
  const dismiss = (ids: number[]) => markRead.mutate({ ids });
  return (
    <section className="notices" aria-labelledby="notices-title" data-testid="notices">
      <div className="notices__head">
        <h2 id="notices-title" className="notices__title">
          {t('title', { count: unread.length })}
        </h2>
        {unread.length > 1 && (
          <button
            type="button"
            className="link-button"
            disabled={markRead.isPending}
            onClick={() => dismiss(unread.map((n) => n.id))}
          >
            {t('dismissAll')}
          </button>
        )}
      </div>
      <ul className="notices__list">
        {unread.map((n) => (
          <li key={n.id} className={`notice notice--${n.kind}`} data-testid="notice" data-kind={n.kind}>
            {/* Titles first, the text on demand: on a phone the notices leave the edit menu on the first
                screen. A single notice is open. */}
            <details className="notice__details" open={unread.length === 1}>
              <summary className="notice__head">
                <strong>{n.title}</strong>{' '}
                <span className="muted small">{formatDate(n.created_at, i18n.language)}</span>
              </summary>
              <p className="notice__message">{n.message}</p>
              {n.path && (
                <p className="actions">
                  <Link className="button button--primary" to={n.path}>
                    {t('open')}
                  </Link>
                </p>
              )}
            </details>
            <button
              type="button"
              className="notice__dismiss"
              disabled={markRead.isPending}
              aria-label={t('dismissLabel', { title: n.title })}
              title={t('dismiss')}
              onClick={() => dismiss([n.id])}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
