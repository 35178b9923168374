import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ProfileItem } from '#shared/schemas/directory';
import { VerifiedBadge } from '#client/components/verified-badge';
import { locationLabel, secondaryName } from '#client/lib/format';

export function ProfileCard({ item, eager }: { item: ProfileItem; eager?: boolean }) {
  const { t } = useTranslation('directory');
  const small = secondaryName(item.name, item.user.profile);
  return (
    <li className="card" data-testid="profile-card" data-id={item.id}>
      <Link className="card__link" to={`/profile/${item.id}`}>
        <div className="card__media">
          {item.avatar ? (
            <img
              src={item.avatar}
              alt=""
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
              width={300}
              height={400}
            />
          ) : (
            <span className="card__placeholder" aria-label={t('item.noPhoto')}>
              {item.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          {item.on_tour && <span className="badge badge--tour">{t('item.onTour')}</span>}
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
    </li>
  );
}
