// The directory's first screens as people see them: the home page, a listing's head (breadcrumb, title,
// category tabs, city chips) and its profile cards. Rendered by the SPA and by the server (the first HTML
// of /, /{category}/{country}[/{place}]), so that the SPA's first render is the markup already on screen
// and nothing moves when it takes over (issue 14, docs/decisions/0705). Pure like profile-view: props in,
// markup out; the SPA passes its router links, handlers and state, the server passes none.
import type { MouseEvent as ReactMouseEvent, ReactNode, Ref } from 'react';
import { CATEGORIES, type Category } from '../constants';
import type { DirectoryPage, Navigation, ProfileItem } from '../schemas/directory';
import { countryName, formatDay, formatDayRange, locationLabel, secondaryName } from './format';
import { PICTURE_SIZES, PictureImage } from './picture';
import { plainLink, type LinkRenderer, type Translate } from './profile-view';
import { VerifiedBadge } from './verified-badge';

/**
 * How the first cards load their images. The first row (two cards on a phone) is the page's largest
 * paint: fetched first (fetchpriority=high, and preloaded by the server's HTML); the next row is on the
 * first screen too (eager); the rest wait until scrolled near (lazy).
 */
export const HIGH_PRIORITY_IMAGES = 2;
export const EAGER_IMAGES = 4;

export function imageLoading(index: number): { loading: 'eager' | 'lazy'; fetchPriority?: 'high' } {
  if (index < HIGH_PRIORITY_IMAGES) return { loading: 'eager', fetchPriority: 'high' };
  return { loading: index < EAGER_IMAGES ? 'eager' : 'lazy' };
}

/** City chips shown before "show all": keeps the list's trigger near the top on phones. */
export const VISIBLE_PLACES = 8;

/** Top countries on the home page. */
export const TOP_COUNTRIES = 12;

export const listPath = (category: Category, country: string, place?: string) =>
  `/${category}/${country}${place ? `/${place}` : ''}`;

export interface ProfileCardViewProps {
  item: ProfileItem;
  /** Position in the list (0 = first): decides the image's priority. */
  index: number;
  t: Translate;
  /** The reader's language (a tour's dates). */
  lang: string;
  renderLink?: LinkRenderer;
  onClick?: (event: ReactMouseEvent<HTMLAnchorElement>) => void;
  cardRef?: Ref<HTMLLIElement>;
  /** Nearby lists: the distance to the visitor. */
  distanceKm?: number;
  /** Controls beside the link (the bookmarks list puts its remove button here). */
  extra?: ReactNode;
}

export function ProfileCardView({
  item,
  index,
  t,
  lang,
  renderLink,
  onClick,
  cardRef,
  distanceKm,
  extra,
}: ProfileCardViewProps) {
  const link = renderLink ?? plainLink;
  const small = secondaryName(item.name, item.user.profile);
  const { loading, fetchPriority } = imageLoading(index);
  return (
    <li className="card" data-testid="profile-card" data-id={item.id} ref={cardRef}>
      {link({
        href: `/profile/${item.id}`,
        className: 'card__link',
        onClick,
        children: (
          <>
            <div className="card__media">
              {item.avatar ? (
                <PictureImage
                  picture={item.avatar}
                  sizes={PICTURE_SIZES.card}
                  alt=""
                  loading={loading}
                  fetchPriority={fetchPriority}
                />
              ) : (
                <span className="card__placeholder" aria-label={t('item.noPhoto')}>
                  {item.name.slice(0, 1).toUpperCase()}
                </span>
              )}
              {(item.on_tour || item.tour) && (
                <span
                  className={`badge badge--tour${item.tour?.state === 'coming' ? ' badge--coming' : ''}`}
                  data-testid="card-tour"
                >
                  {tourBadge(item, t, lang)}
                </span>
              )}
              {item.available_now && (
                <span className="badge badge--available" data-testid="card-available">
                  {t('item.availableNow')}
                </span>
              )}
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
          </>
        ),
      })}
      {extra}
    </li>
  );
}

/**
 * A card's tour: "In Berlin 12–15 March" while it runs, "Visiting from 12 March" before it starts, "On
 * tour" for an additional location without dates (docs/decisions/0403).
 */
export function tourBadge(item: ProfileItem, t: Translate, lang: string): string {
  const tour = item.tour;
  if (!tour) return t('item.onTour');
  const city = item.user.city ?? '';
  if (tour.state === 'coming' && tour.from) return t('item.tourComing', { date: formatDay(tour.from, lang) });
  if (tour.from && tour.until) return t('item.tourNow', { city, dates: formatDayRange(tour.from, tour.until, lang) });
  if (tour.until) return t('item.tourUntil', { city, date: formatDay(tour.until, lang) });
  return t('item.tourFrom', { city, date: formatDay(tour.from ?? '', lang) });
}

/** The heading of a listing: "Escorts in London" (null while the navigation is not there yet). */
export function listingHeading(t: Translate, category: Category, nav: Navigation | undefined, lang: string) {
  if (!nav) return null;
  const location = nav.place?.name ?? countryName(nav.country.code, nav.country.name, lang);
  return t('list.heading', { category: t(`titles:${category}`), location });
}

export interface DirectoryHeadViewProps {
  category: Category;
  /** The route's country and place slugs (the navigation may still be loading in the SPA). */
  country: string;
  place?: string;
  nav: Navigation | undefined;
  t: Translate;
  lang: string;
  renderLink?: LinkRenderer;
  /** All city chips shown (the SPA's "more cities" toggle); the server shows the first few. */
  allPlaces?: boolean;
  onTogglePlaces?: () => void;
}

/** Breadcrumb, title, count, category tabs and city chips of a listing. */
export function DirectoryHeadView(props: DirectoryHeadViewProps) {
  const { category, country, place, nav, t, lang } = props;
  const link = props.renderLink ?? plainLink;
  const countryLabel = nav ? countryName(nav.country.code, nav.country.name, lang) : null;
  const heading = listingHeading(t, category, nav, lang);
  const counts = nav?.counts;
  return (
    <>
      <nav className="breadcrumb" aria-label={t('list.breadcrumb')}>
        <ol>
          <li>{link({ href: '/countries', children: t('list.worldwide') })}</li>
          {nav && countryLabel && (
            <li>
              {nav.place ? (
                link({ href: listPath(category, nav.country.slug), children: countryLabel })
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
        {link({
          href: '/escorts/nearby',
          className: 'chip chip--button directory__nearby',
          'data-testid': 'nearby-button',
          children: (
            <>
              <span aria-hidden="true">◎</span> {t('nearby.button')}
            </>
          ),
        })}
      </header>

      <nav className="tabs" aria-label={t('list.categoryLabel')}>
        <ul>
          {CATEGORIES.map((c) => (
            <li key={c}>
              {link({
                href: listPath(c, country, place),
                className: 'tabs__tab',
                'aria-current': c === category ? 'page' : undefined,
                children: (
                  <>
                    {t(`categories.${c}`)}
                    {counts && <span className="tabs__count">{counts[c] ?? 0}</span>}
                  </>
                ),
              })}
            </li>
          ))}
        </ul>
      </nav>
      {nav && nav.places.length > 0 && (
        <PlaceChipsView {...props} nav={nav} link={link} countryLabel={countryLabel ?? ''} />
      )}
    </>
  );
}

function PlaceChipsView({
  nav,
  category,
  country,
  place,
  countryLabel,
  t,
  link,
  allPlaces = false,
  onTogglePlaces,
}: DirectoryHeadViewProps & { nav: Navigation; link: LinkRenderer; countryLabel: string }) {
  const activeIndex = nav.places.findIndex((p) => p.slug === place);
  // Keep the active city visible even when it is beyond the first few.
  const shown = allPlaces ? nav.places : nav.places.filter((p, i) => i < VISIBLE_PLACES || i === activeIndex);
  return (
    <nav className="places" aria-label={t('list.cities')}>
      <ul className="chips">
        <li>
          {link({
            href: listPath(category, country),
            className: `chip${place ? '' : ' chip--active'}`,
            'aria-current': place ? undefined : 'page',
            children: t('list.allCities', { country: countryLabel }),
          })}
        </li>
        {shown.map((p) => (
          <li key={p.slug}>
            {link({
              href: listPath(category, country, p.slug),
              className: `chip${p.slug === place ? ' chip--active' : ''}`,
              'aria-current': p.slug === place ? 'page' : undefined,
              children: (
                <>
                  {p.name} <span className="chip__count">{p.count}</span>
                </>
              ),
            })}
          </li>
        ))}
        {nav.places.length > VISIBLE_PLACES && (
          <li>
            <button type="button" className="chip chip--button" aria-expanded={allPlaces} onClick={onTogglePlaces}>
              {allPlaces ? t('list.fewerCities') : t('list.moreCities')}
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}

/** The first page of a listing as the server sends it (the SPA's ProfileList renders the same grid). */
export function CardGridView({
  page,
  t,
  lang,
  emptyText,
}: {
  page: DirectoryPage;
  t: Translate;
  lang: string;
  emptyText: string;
}) {
  return (
    <div className="profile-list">
      {page.data.length > 0 && <h2 className="visually-hidden">{t('list.profilesHeading')}</h2>}
      {page.data.length > 0 && (
        <ul className="card-grid" data-testid="profile-grid">
          {page.data.map((item, index) => (
            <ProfileCardView key={item.id} item={item} index={index} t={t} lang={lang} />
          ))}
        </ul>
      )}
      <div className="profile-list__trigger" aria-hidden="true" />
      <div className="profile-list__status">
        {!page.has_more && page.data.length === 0 && <p className="empty">{emptyText}</p>}
        {!page.has_more && page.data.length > 0 && <p className="muted">{t('list.end')}</p>}
      </div>
    </div>
  );
}

export interface CountryCountView {
  code: string;
  slug: string;
  name: string;
  count: number;
}

/** The home page: headline, the busiest countries and the other categories. */
export function HomeView({
  countries,
  t,
  lang,
  renderLink,
}: {
  /** Null while loading (the SPA shows placeholders of the same height). */
  countries: CountryCountView[] | null;
  t: Translate;
  lang: string;
  renderLink?: LinkRenderer;
}) {
  const link = renderLink ?? plainLink;
  const top = [...(countries ?? [])].sort((a, b) => b.count - a.count).slice(0, TOP_COUNTRIES);
  return (
    <div className="home">
      <section className="hero">
        <div className="container">
          <h1 className="hero__title">{t('home.headline')}</h1>
          <p className="hero__lead">{t('home.lead')}</p>
          <p className="hero__actions">
            {link({
              href: '/escorts/nearby',
              className: 'button button--primary',
              'data-testid': 'nearby-button',
              children: (
                <>
                  <span aria-hidden="true">◎</span> {t('nearby.button')}
                </>
              ),
            })}
            {link({ href: '/countries', className: 'button', children: t('home.allCountries') })}
          </p>
        </div>
      </section>

      <section className="container section" aria-labelledby="top-countries">
        <div className="section__head">
          <h2 id="top-countries">{t('home.topCountries')}</h2>
          {link({ href: '/countries', className: 'section__more', children: `${t('home.allCountries')} →` })}
        </div>
        {countries === null ? (
          <ul className="country-grid" aria-busy="true">
            {Array.from({ length: 6 }, (_, i) => (
              <li key={i} className="country-card country-card--skeleton" />
            ))}
          </ul>
        ) : top.length === 0 ? (
          <p className="empty">{t('home.empty')}</p>
        ) : (
          <ul className="country-grid" data-testid="top-countries">
            {top.map((country) => (
              <li key={country.slug}>
                {link({
                  href: `/escorts/${country.slug}`,
                  className: 'country-card',
                  children: (
                    <>
                      <span className="country-card__name">{countryName(country.code, country.name, lang)}</span>
                      <span className="country-card__count">{t('countries.count', { count: country.count })}</span>
                    </>
                  ),
                })}
              </li>
            ))}
          </ul>
        )}
      </section>

      {top[0] && (
        <section className="container section" aria-labelledby="categories">
          <h2 id="categories">{t('home.categories')}</h2>
          <ul className="chips">
            {CATEGORIES.filter((c) => c !== 'escorts').map((category) => (
              <li key={category}>
                {link({
                  href: `/countries?category=${category}`,
                  className: 'chip',
                  children: t(`common:nav.${category}`),
                })}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The head of /search?q= (the results follow as a card grid). */
export function SearchHeadView({
  q,
  valid,
  total,
  more = false,
  t,
}: {
  q: string;
  valid: boolean;
  total?: number;
  /** The total is a floor: "more than" it (decision 0735). */
  more?: boolean;
  t: Translate;
}) {
  return (
    <header className="directory__head">
      <h1 className="directory__title">{valid ? t('search.resultsFor', { q }) : t('search.heading')}</h1>
      {valid && total !== undefined && (
        <p className="muted">{more ? t('search.totalMore', { n: total }) : t('search.total', { count: total })}</p>
      )}
    </header>
  );
}
