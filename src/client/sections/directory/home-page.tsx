import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CATEGORIES } from '#shared/constants.ts';
import { useCountries } from '#client/features/directory/api.ts';
import { countryName } from '#client/lib/format.ts';

const TOP_COUNTRIES = 12;

export function HomePage() {
  const { t, i18n } = useTranslation('directory');
  const countries = useCountries();
  const top = [...(countries.data ?? [])].sort((a, b) => b.count - a.count).slice(0, TOP_COUNTRIES);

  return (
    <div className="home">
      <section className="hero">
        <div className="container">
          <h1 className="hero__title">{t('home.headline')}</h1>
          <p className="hero__lead">{t('home.lead')}</p>
          <p className="hero__actions">
            <Link className="button button--primary" to="/escorts/nearby" data-testid="nearby-button">
              <span aria-hidden="true">◎</span> {t('nearby.button')}
            </Link>
            <Link className="button" to="/countries">
              {t('home.allCountries')}
            </Link>
          </p>
        </div>
      </section>

      <section className="container section" aria-labelledby="top-countries">
        <div className="section__head">
          <h2 id="top-countries">{t('home.topCountries')}</h2>
          <Link to="/countries" className="section__more">
            {t('home.allCountries')} →
          </Link>
        </div>
        {countries.isPending ? (
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
                <Link className="country-card" to={`/escorts/${country.slug}`}>
                  <span className="country-card__name">{countryName(country.code, country.name, i18n.language)}</span>
                  <span className="country-card__count">{t('countries.count', { count: country.count })}</span>
                </Link>
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
                <Link className="chip" to={`/countries?category=${category}`}>
                  {t(`common:nav.${category}`)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
