import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { Category } from '#shared/constants.ts';
import { DirectoryHeadView, listingHeading } from '#shared/views/directory-view.tsx';
import type { Translate } from '#shared/views/profile-view.tsx';
import { routerLink } from '#client/components/router-link.tsx';
import { countryCurrency, hasFilters } from '#shared/rules/list-filters.ts';
import { listingSource, normalizeFilter, useNavigation, useProfilePages } from './api';
import { FilterEmpty, ListFilterControls, useListFilters } from './list-filters';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { rememberCountry } from '#client/lib/last-country.ts';
import { ProfileList } from './profile-list';
import { ToursAheadSection } from './tours-ahead';

/** A listing: the head the server also renders (shared/views/directory-view), then the paged cards. */
export function DirectoryPage({ category }: { category: Category }) {
  const { t, i18n } = useTranslation('directory');
  const translate = useCallback<Translate>((key, options) => t(key, options ?? {}), [t]);
  const params = useParams();
  const country = params.country ?? '';
  const place = params.place;
  const filter = useMemo(() => normalizeFilter({ category, country, place }), [category, country, place]);
  const navigation = useNavigation(filter);
  const { filters, apply } = useListFilters();
  const source = useMemo(() => listingSource(filter, filters), [filter, filters]);
  // The total from the list's own first page (cached, or carried by the server's page): no fetch here.
  const first = useProfilePages(source, false).data?.pages[0];
  const total = first?.total;
  const more = first?.total_more ?? false;
  const [allPlaces, setAllPlaces] = useState(false);

  useEffect(() => rememberCountry(country), [country]);
  useDocumentTitle(listingHeading(translate, category, navigation.data, i18n.language));

  return (
    <div className="directory container">
      <DirectoryHeadView
        category={category}
        country={country}
        place={place}
        nav={navigation.data}
        t={translate}
        lang={i18n.language}
        renderLink={routerLink}
        allPlaces={allPlaces}
        onTogglePlaces={() => setAllPlaces((v) => !v)}
      />
      <ListFilterControls
        filters={filters}
        apply={apply}
        currency={countryCurrency(navigation.data?.country.code)}
        total={total}
        more={more}
      />
      <ProfileList
        source={source}
        emptyText={t('list.empty')}
        empty={hasFilters(filters) ? <FilterEmpty filters={filters} apply={apply} /> : undefined}
      />
      {place && <ToursAheadSection filter={{ ...filter, place }} />}
    </div>
  );
}
