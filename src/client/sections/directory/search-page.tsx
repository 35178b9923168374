import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SEARCH_MIN_CHARS } from '#shared/constants.ts';
import { searchSource, type DirectoryPage } from '#client/features/directory/api.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { ProfileList } from './profile-list';

/** /search?q=: the results of the main search box, paged like a listing. */
export function SearchPage() {
  const { t } = useTranslation('directory');
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const valid = q.length >= SEARCH_MIN_CHARS;
  const source = useMemo(() => searchSource(q), [q]);
  const [total, setTotal] = useState<{ q: string; count: number } | null>(null);
  const onFirstPage = useCallback((page: DirectoryPage) => setTotal({ q, count: page.total }), [q]);
  useDocumentTitle(valid ? t('search.resultsFor', { q }) : null);

  return (
    <div className="container section search-page">
      <header className="directory__head">
        <h1 className="directory__title">{valid ? t('search.resultsFor', { q }) : t('search.heading')}</h1>
        {valid && total?.q === q && <p className="muted">{t('search.total', { count: total.count })}</p>}
      </header>
      {valid ? (
        <ProfileList source={source} emptyText={t('search.empty', { q })} onFirstPage={onFirstPage} />
      ) : (
        <p className="lead">{t('search.tooShort', { count: SEARCH_MIN_CHARS })}</p>
      )}
    </div>
  );
}
