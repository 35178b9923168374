import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { listingSource, normalizeFilter, useNavigation, type Navigation } from '#client/features/directory/api.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { countryName } from '#client/lib/format.ts';
import { rememberCountry } from '#client/lib/last-country.ts';
import { ProfileList } from './profile-list';

/** City chips shown before "show all": keeps the list's trigger near the top on phones. */
const VISIBLE_PLACES = 8;

const listPath = (category: Category, country: string, place?: string) =>
  `/${category}/${country}${place ? `/${place}` : ''}`;

export function DirectoryPage({ category }: { category: Category }) {
  const { t, i18n } = useTranslation('directory');
  const params = useParams();
  const country = params.country ?? '';
  const place = params.place;
  const filter = useMemo(() => normalizeFilter({ category, country, place }), [category, country, place]);
  const navigation = useNavigation(filter);
  const source = useMemo(() => listingSource(filter), [filter]);
  const nav = navigation.data;

  useEffect(() => rememberCountry(country), [country]);

  const countryLabel = nav ? countryName(nav.country.code, nav.country.name, i18n.language) : null;
  const locationText = nav?.place?.name ?? countryLabel;
  const heading = locationText
    ? t('list.heading', { category: t(`titles:${category}`), location: locationText })
    : null;
  useDocumentTitle(heading);

  return (
    <div className="directory container">
      <nav className="breadcrumb" aria-label={t('list.breadcrumb')}>
        <ol>
          <li>
            <Link to="/countries">{t('list.worldwide')}</Link>
          </li>
          {nav && countryLabel && (
            <li>
              {nav.place ? (
                <Link to={listPath(category, nav.country.slug)}>{countryLabel}</Link>
              ) : (
                <span aria-current="page">{countryLabel}</span>
              )}
            </li>
          )}
          {nav?.place && (
            <li>
              <span aria-current="page">{nav.place.name}</span>
            </li>
          )}
        </ol>
      </nav>

      <header className="directory__head">
        <h1 className="directory__title">{heading ?? <span className="skeleton-text" />}</h1>
        {nav && <p className="muted">{t('list.total', { count: nav.counts[category] ?? 0 })}</p>}
        <Link className="chip chip--button directory__nearby" to="/escorts/nearby" data-testid="nearby-button">
          <span aria-hidden="true">◎</span> {t('nearby.button')}
        </Link>
      </header>

      <CategoryTabs category={category} country={country} place={place} counts={nav?.counts} />
      {nav && nav.places.length > 0 && (
        <PlaceChips nav={nav} category={category} country={country} place={place} countryLabel={countryLabel ?? ''} />
      )}

      <ProfileList source={source} emptyText={t('list.empty')} />
    </div>
  );
}

function CategoryTabs({
  category,
  country,
  place,
  counts,
}: {
  category: Category;
  country: string;
  place?: string;
  counts?: Navigation['counts'];
}) {
  const { t } = useTranslation('directory');
  return (
    <nav className="tabs" aria-label={t('list.categoryLabel')}>
      <ul>
        {CATEGORIES.map((c) => (
          <li key={c}>
            <Link
              to={listPath(c, country, place)}
              className="tabs__tab"
              aria-current={c === category ? 'page' : undefined}
            >
              {t(`categories.${c}`)}
              {counts && <span className="tabs__count">{counts[c] ?? 0}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function PlaceChips({
  nav,
  category,
  country,
  place,
  countryLabel,
}: {
  nav: Navigation;
  category: Category;
  country: string;
  place?: string;
  countryLabel: string;
}) {
  const { t } = useTranslation('directory');
  const [all, setAll] = useState(false);
  const activeIndex = nav.places.findIndex((p) => p.slug === place);
  // Keep the active city visible even when it is beyond the first few.
  const shown = all ? nav.places : nav.places.filter((p, i) => i < VISIBLE_PLACES || i === activeIndex);
  return (
    <nav className="places" aria-label={t('list.cities')}>
      <ul className="chips">
        <li>
          <Link
            className={`chip${place ? '' : ' chip--active'}`}
            to={listPath(category, country)}
            aria-current={place ? undefined : 'page'}
          >
            {t('list.allCities', { country: countryLabel })}
          </Link>
        </li>
        {shown.map((p) => (
          <li key={p.slug}>
            <Link
              className={`chip${p.slug === place ? ' chip--active' : ''}`}
              to={listPath(category, country, p.slug)}
              aria-current={p.slug === place ? 'page' : undefined}
            >
              {p.name} <span className="chip__count">{p.count}</span>
            </Link>
          </li>
        ))}
        {nav.places.length > VISIBLE_PLACES && (
          <li>
            <button type="button" className="chip chip--button" aria-expanded={all} onClick={() => setAll((v) => !v)}>
              {all ? t('list.fewerCities') : t('list.moreCities')}
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
