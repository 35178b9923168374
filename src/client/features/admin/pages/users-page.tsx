// /admin/users?q=: the admin search (spec section 2: no minimum length; empty lists everyone, newest
// first) by screen name, email, login, phone, id or city. A line opens the admin modal.
import { useTranslation } from 'react-i18next';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useUserSearch } from '../api';
import { AdminFrame, Empty, Pager, PersonLine, usePage, useQueryParam } from '../parts';

export function UsersPage() {
  const { t } = useTranslation('admin');
  const [q] = useQueryParam('q', '');
  const [page, setPage] = usePage();
  const { data } = useUserSearch(q.trim(), page);
  return (
    <AdminFrame title={t('users.title')} search lead={q ? t('users.results', { q }) : t('users.all')}>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <Empty>{t('users.empty')}</Empty>
      ) : (
        <ul className="admin-list" data-testid="user-results">
          {data.data.map((u) => (
            <li key={u.user_id} className="admin-card admin-card--flat">
              <PersonLine user={u} />
            </li>
          ))}
        </ul>
      )}
      {data && <Pager page={page} hasMore={data.has_more} onPage={setPage} />}
    </AdminFrame>
  );
}
