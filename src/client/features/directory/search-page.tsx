import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SEARCH_MIN_CHARS } from '#shared/constants.ts';
import { SearchHeadView } from '#shared/views/directory-view.tsx';
import type { Translate } from '#shared/views/profile-view.tsx';
import { searchSource, useProfilePages } from './api';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { ProfileList } from './profile-list';
import { hasFilters } from '#shared/rules/list-filters.ts';
import { FilterEmpty, ListFilterControls, useListFilters } from './list-filters';

/** /search?q=: the results of the main search box, paged like a listing (the server renders the same). */
export function SearchPage() {
  const { t } = useTranslation('directory');
  const translate = useCallback<Translate>((key, options) => t(key, options ?? {}), [t]);
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const valid = q.length >= SEARCH_MIN_CHARS;
  const { filters, apply } = useListFilters();
  const source = useMemo(() => searchSource(q, filters), [q, filters]);
  // The total from the list's own first page (cached, or carried by the server's page): no fetch here.
  const first = useProfilePages(source, false).data?.pages[0];
  const total = first?.total;
  const more = first?.total_more ?? false;
  useDocumentTitle(valid ? t('search.resultsFor', { q }) : null);

  return (
    <div className="container section search-page">
      <SearchHeadView q={q} valid={valid} total={total} more={more} t={translate} />
      {valid ? (
        <>
          <ListFilterControls filters={filters} apply={apply} currency="EUR" total={total} more={more} />
          <ProfileList
            source={source}
            emptyText={t('search.empty', { q })}
            empty={hasFilters(filters) ? <FilterEmpty filters={filters} apply={apply} /> : undefined}
          />
        </>
      ) : (
        <p className="lead">{t('search.tooShort', { count: SEARCH_MIN_CHARS })}</p>
      )}
    </div>
  );
}
