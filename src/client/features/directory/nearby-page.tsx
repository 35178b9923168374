// /escorts/nearby: profiles by distance from the visitor (spec section 2, reached from the "Near me"
// button). The browser asks for the position; only a rounded position (2 decimals, about 1 km) is
// sent, and it is kept nowhere. A refusal or a missing position is said plainly, with a way on.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { nearbySource } from './api';
import { ProfileList } from './profile-list';
import { hasFilters } from '#shared/rules/list-filters.ts';
import { FilterEmpty, ListFilterControls, useListFilters } from './list-filters';

type Geo =
  | { status: 'asking' }
  | { status: 'denied' }
  | { status: 'unavailable' }
  | { status: 'ready'; lat: number; lng: number };

const round = (value: number) => Math.round(value * 100) / 100;

export function NearbyPage() {
  const { t } = useTranslation('directory');
  const [geo, setGeo] = useState<Geo>({ status: 'asking' });

  const locate = useCallback(() => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setGeo({ status: 'unavailable' });
      return;
    }
    setGeo({ status: 'asking' });
    navigator.geolocation.getCurrentPosition(
      (position) =>
        setGeo({ status: 'ready', lat: round(position.coords.latitude), lng: round(position.coords.longitude) }),
      (error) => setGeo({ status: error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable' }),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 10 * 60_000 },
    );
  }, []);

  useEffect(() => locate(), [locate]);

  const lat = geo.status === 'ready' ? geo.lat : null;
  const lng = geo.status === 'ready' ? geo.lng : null;
  const { filters, apply } = useListFilters();
  const source = useMemo(
    () => (lat !== null && lng !== null ? nearbySource(lat, lng, filters) : null),
    [lat, lng, filters],
  );

  return (
    <div className="container section nearby-page">
      <header className="directory__head">
        <h1 className="directory__title">{t('nearby.heading')}</h1>
      </header>
      {geo.status === 'asking' && (
        <p className="lead" role="status" data-testid="nearby-asking">
          {t('nearby.asking')}
        </p>
      )}
      {(geo.status === 'denied' || geo.status === 'unavailable') && (
        <div className="notice notice--warning" role="alert" data-testid={`nearby-${geo.status}`}>
          <p className="notice__title">
            {geo.status === 'denied' ? t('nearby.deniedTitle') : t('nearby.unavailableTitle')}
          </p>
          <p>{geo.status === 'denied' ? t('nearby.denied') : t('nearby.unavailable')}</p>
          <p className="actions">
            <button type="button" className="button button--primary" onClick={locate}>
              {t('nearby.retry')}
            </button>
            <Link className="button" to="/countries">
              {t('nearby.browse')}
            </Link>
          </p>
        </div>
      )}
      {source && (
        <>
          <p className="muted small">{t('nearby.privacy')}</p>
          <ListFilterControls filters={filters} apply={apply} currency="EUR" />
          <ProfileList
            source={source}
            emptyText={t('nearby.empty')}
            empty={hasFilters(filters) ? <FilterEmpty filters={filters} apply={apply} /> : undefined}
          />
        </>
      )}
    </div>
  );
}
