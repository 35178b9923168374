// The account's unread notices, where the advertiser looks first (the overview of /edit/{id}, the
// auto-topup screen): what went wrong and where to fix it, until marked read.
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
  return (
    <section className="notices" aria-labelledby="notices-title" data-testid="notices">
      <h2 id="notices-title" className="notices__title">
        {t('title', { count: unread.length })}
      </h2>
      <ul className="notices__list">
        {unread.map((n) => (
          <li key={n.id} className={`notice notice--${n.kind}`} data-testid="notice" data-kind={n.kind}>
            <p className="notice__head">
              <strong>{n.title}</strong> <span className="muted small">{formatDate(n.created_at, i18n.language)}</span>
            </p>
            <p className="notice__message">{n.message}</p>
            <p className="actions">
              {n.path && (
                <Link className="button button--primary" to={n.path}>
                  {t('open')}
                </Link>
              )}
              <button
                type="button"
                className="button"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate({ ids: [n.id] })}
              >
                {t('markRead')}
              </button>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
