// /bookmarks: the profiles bookmarked in this browser, newest first (spec sections 2-4). Each is
// fetched once and kept (the list does not reload while a result exists); a bookmark whose profile
// is no longer listed is counted and can be cleared.
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BookmarkButton } from '#client/components/bookmark-button.tsx';
import { bookmarkQuery, toProfileItem } from './api';
import { openProfile } from './profile-modal-store';
import { removeBookmark, useBookmarks } from '#client/lib/bookmarks.ts';
import { confirm } from '#client/lib/dialogs.ts';
import { ProfileCard } from './profile-card';

export function BookmarksPage() {
  const { t } = useTranslation('directory');
  const ids = useBookmarks();
  const results = useQueries({ queries: ids.map((id) => bookmarkQuery(id)) });
  const rows = ids.map((id, index) => ({ id, result: results[index] }));
  const items = rows.flatMap(({ result }) => (result?.data ? [toProfileItem(result.data)] : []));
  const gone = rows.filter(({ result }) => result?.isSuccess && result.data === null).map(({ id }) => id);
  const pending = rows.some(({ result }) => result?.isPending);

  const shownIds = () => items.map((item) => item.id);
  const clearGone = async () => {
    const yes = await confirm({ title: t('bookmarks.clearGoneTitle'), cancel: t('common:dialog.cancel') });
    if (yes) for (const id of gone) removeBookmark(id);
  };

  return (
    <div className="container section bookmarks-page">
      <header className="directory__head">
        <h1 className="directory__title">{t('bookmarks.heading')}</h1>
        {ids.length > 0 && <p className="muted">{t('bookmarks.count', { count: ids.length })}</p>}
      </header>
      <p className="lead">{t('bookmarks.lead')}</p>
      {ids.length === 0 ? (
        <div className="empty" data-testid="bookmarks-empty">
          <p>{t('bookmarks.empty')}</p>
          <Link className="button" to="/countries">
            {t('bookmarks.browse')}
          </Link>
        </div>
      ) : (
        <>
          {items.length > 0 && (
            <ul className="card-grid" data-testid="bookmark-grid">
              {items.map((item, index) => (
                <ProfileCard
                  key={item.id}
                  item={item}
                  index={index}
                  onOpen={(id) => openProfile(id, { ids: shownIds })}
                  extra={
                    <div className="card__extra">
                      <BookmarkButton id={item.id} compact />
                    </div>
                  }
                />
              ))}
            </ul>
          )}
          {pending && items.length === 0 && (
            <ul className="card-grid" aria-hidden="true">
              {ids.slice(0, 8).map((id) => (
                <li key={id} className="card card--skeleton" />
              ))}
            </ul>
          )}
          {gone.length > 0 && (
            <p className="bookmarks-page__gone muted">
              {t('bookmarks.gone', { count: gone.length })}{' '}
              <button type="button" className="button button--ghost" onClick={() => void clearGone()}>
                {t('bookmarks.clearGone')}
              </button>
            </p>
          )}
        </>
      )}
    </div>
  );
}
