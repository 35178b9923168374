import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { useCountries } from './api';
import { countryName } from '#client/lib/format.ts';

const isCategory = (value: string | null): value is Category =>
  !!value && (CATEGORIES as readonly string[]).includes(value);

/** All countries with listings. `?category=` keeps a category chosen in the menu for the links. */
export function CountriesPage() {
  const { t, i18n } = useTranslation('directory');
  const [search] = useSearchParams();
  const requested = search.get('category');
  const category: Category = isCategory(requested) ? requested : 'escorts';
  const countries = useCountries(category);
  const collator = new Intl.Collator(i18n.language);
  const rows = (countries.data ?? [])
    .map((c) => ({ ...c, label: countryName(c.code, c.name, i18n.language) }))
    .sort((a, b) => collator.compare(a.label, b.label));

  return (
    <section className="container section">
      <h1>{t('countries.heading')}</h1>
      <p className="lead">{t('countries.lead')}</p>
      {category !== 'escorts' && <p className="chip chip--active chip--static">{t(`common:nav.${category}`)}</p>}
      {countries.isPending ? (
        <ul className="country-list" aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            <li key={i} className="country-list__skeleton" />
          ))}
        </ul>
      ) : rows.length === 0 ? (
        <p className="empty">{t('countries.empty')}</p>
      ) : (
        <ul className="country-list" data-testid="country-list">
          {rows.map((country) => (
            <li key={country.slug}>
              <Link to={`/${category}/${country.slug}`} className="country-list__link">
                <span>{country.label}</span>
                <span className="country-list__count">{t('countries.count', { count: country.count })}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
