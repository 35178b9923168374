import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProfileItem } from '#shared/schemas/directory.ts';
import { locationLabel } from '#shared/views/format.ts';
import { VerifiedBadge } from '#shared/views/verified-badge.tsx';
import { PICTURE_SIZES, PictureImage } from '#shared/views/picture.tsx';
import { secondaryName } from '#client/lib/format.ts';
import { observeImpression } from '#client/lib/impressions.ts';

export function ProfileCard({
  item,
  eager,
  onOpen,
  distanceKm,
  extra,
}: {
  item: ProfileItem;
  eager?: boolean;
  /** A plain click opens the profile modal over the list; other clicks (new tab...) follow the link. */
  onOpen?: (id: number) => void;
  /** Nearby lists: the distance to the visitor. */
  distanceKm?: number;
  /** Controls beside the link (the bookmarks list puts its remove button here). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation('directory');
  const small = secondaryName(item.name, item.user.profile);
  const ref = useRef<HTMLLIElement>(null);

  // An impression: the card was at least half on screen (lib/impressions).
  useEffect(() => {
    const element = ref.current;
    return element ? observeImpression(element, item.id) : undefined;
  }, [item.id]);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onOpen || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(item.id);
  };

  return (
    <li className="card" data-testid="profile-card" data-id={item.id} ref={ref}>
      <Link className="card__link" to={`/profile/${item.id}`} onClick={onClick}>
        <div className="card__media">
          {item.avatar ? (
            <PictureImage picture={item.avatar} sizes={PICTURE_SIZES.card} alt="" loading={eager ? 'eager' : 'lazy'} />
          ) : (
            <span className="card__placeholder" aria-label={t('item.noPhoto')}>
              {item.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          {item.on_tour && <span className="badge badge--tour">{t('item.onTour')}</span>}
          {distanceKm !== undefined && (
            <span className="badge badge--distance" data-testid="card-distance">
              {distanceKm < 1 ? t('nearby.lessThanOne') : t('nearby.distance', { km: Math.round(distanceKm) })}
            </span>
          )}
        </div>
        <div className="card__body">
          <h3 className="card__name">
            <span className="card__name-text">{item.name}</span>
            {item.verified && <VerifiedBadge label={t('item.verified')} />}
          </h3>
          {item.heading && <p className="card__heading">{item.heading}</p>}
          <p className="card__location">{locationLabel(item.user.city, item.user.place)}</p>
          {small && <small className="card__profile-name">{small}</small>}
        </div>
      </Link>
      {extra}
    </li>
  );
}
