// /feed (DESIGN.md "Other screens"): the newest verified profiles, new photos and new tours, each a
// list of its own with "Load more".
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FEED_KINDS, type FeedEntry, type FeedKind } from '#shared/schemas/feed.ts';
import { formatDate } from '#shared/views/format.ts';
import { PICTURE_SIZES, PictureImage } from '#shared/views/picture.tsx';
import { ProfileCard } from '#client/features/directory/index.ts';
import { useFeed } from './api';
import './pages.css';

export function FeedPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="container feed" data-testid="feed-page">
      <h1>{t('feed.title')}</h1>
      <p className="lead">{t('feed.lead')}</p>
      {FEED_KINDS.map((kind) => (
        <FeedList key={kind} kind={kind} />
      ))}
    </div>
  );
}

function FeedList({ kind }: { kind: FeedKind }) {
  const { t, i18n } = useTranslation('pages');
  const list = useFeed(kind);
  const entries = list.data?.pages.flatMap((page) => page.data) ?? [];
  const headingId = `feed-${kind}`;
  return (
    <section className="feed__section" aria-labelledby={headingId} data-testid={`feed-${kind}`}>
      <h2 id={headingId}>{t(`feed.${kind}`)}</h2>
      {list.isPending ? (
        <ul className="card-grid" aria-hidden="true">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="card card--skeleton" />
          ))}
        </ul>
      ) : entries.length === 0 ? (
        <p className="empty">{t('feed.empty')}</p>
      ) : (
        <ul className="card-grid">
          {entries.map((entry, index) =>
            kind === 'photos' ? (
              <PhotoCard key={entry.key} entry={entry} />
            ) : (
              <ProfileCard
                key={entry.key}
                item={entry.profile}
                index={index}
                extra={
                  <>
                    <p className="feed__when small muted">
                      {entry.tour
                        ? tourText(entry.tour, (key, o) => t(key, o), i18n.language)
                        : t('feed.verifiedOn', { date: formatDate(entry.at, i18n.language) })}
                    </p>
                    {entry.tour && (
                      <Link className="feed__city small" to={entry.tour.path} data-testid="feed-tour-city">
                        {t(entry.tour.path.endsWith('#tours-ahead') ? 'feed.tourLink' : 'feed.cityLink', {
                          city: entry.tour.city,
                        })}
                      </Link>
                    )}
                  </>
                }
              />
            ),
          )}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button feed__more"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t('feed.loadMore')}
        </button>
      )}
    </section>
  );
}

function tourText(
  tour: NonNullable<FeedEntry['tour']>,
  t: (key: string, options?: Record<string, unknown>) => string,
  language: string,
): string {
  const from = tour.from ? formatDate(tour.from, language) : null;
  const until = tour.until ? formatDate(tour.until, language) : null;
  if (from && until) return t('feed.tourDates', { city: tour.city, from, until });
  if (until) return t('feed.tourUntil', { city: tour.city, until });
  if (from) return t('feed.tourFrom', { city: tour.city, from });
  return t('feed.tourIn', { city: tour.city });
}

function PhotoCard({ entry }: { entry: FeedEntry }) {
  const { t, i18n } = useTranslation('pages');
  return (
    <li className="card feed__photo" data-testid="feed-photo">
      <Link className="card__link" to={`/profile/${entry.profile.id}`}>
        <div className="card__media">
          {entry.photo && (
            <PictureImage
              picture={entry.photo}
              sizes={PICTURE_SIZES.card}
              alt={t('feed.photoOf', { name: entry.profile.name })}
              loading="lazy"
            />
          )}
        </div>
        <div className="card__body">
          <span className="card__name">{entry.profile.name}</span>
          <span className="small muted">{formatDate(entry.at, i18n.language)}</span>
        </div>
      </Link>
    </li>
  );
}
