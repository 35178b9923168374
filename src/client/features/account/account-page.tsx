import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { useAccount } from './api';
import { ApiError } from '#client/lib/api.ts';
import { openLoginModal } from '#client/lib/dialogs.ts';
import { formatDate } from '#client/lib/format.ts';
import { DeleteCard } from './delete-card';
import { EmailCard, MobileCard, PasswordCard, UsernameCard } from './account-cards';
import { LinkedAccountsCard } from './linked-accounts-card';

/** /edit/account/{id}: the owner, or an admin acting on the account. */
export function AccountPage() {
  const { t, i18n } = useTranslation('settings');
  const params = useParams();
  const id = Number(params.id);
  const { data: user } = useCurrentUser();
  const account = useAccount(id);
  const isSelf = !!user && user.user_id === id;
  // Only once the user data is in: an admin acting on someone else's account.
  const asAdmin = !!user && user.user_id !== id;

  let content;
  if (account.isPending) {
    content = (
      <div className="settings__grid" aria-busy="true">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="settings-card settings-card--skeleton" />
        ))}
      </div>
    );
  } else if (account.isError) {
    const status = account.error instanceof ApiError ? account.error.status : 0;
    content = (
      <div className="settings-card" role="alert">
        <p>{status === 401 ? t('page.signIn') : status === 403 ? t('page.forbidden') : t('page.failed')}</p>
        {status === 401 ? (
          <button type="button" className="button button--primary" onClick={openLoginModal}>
            {t('page.login')}
          </button>
        ) : (
          <button type="button" className="button" onClick={() => void account.refetch()}>
            {t('page.retry')}
          </button>
        )}
      </div>
    );
  } else {
    const data = account.data;
    content = (
      <>
        {asAdmin && (
          <p className="settings__note" role="note">
            {t('page.adminNote', { username: data.username })}
          </p>
        )}
        <div className="settings__grid">
          <EmailCard account={data} isSelf={isSelf} asAdmin={asAdmin} />
          <MobileCard account={data} />
          <PasswordCard account={data} asAdmin={asAdmin} />
          <UsernameCard account={data} />
          {isSelf && <LinkedAccountsCard />}
          <DeleteCard account={data} isSelf={isSelf} asAdmin={asAdmin} />
        </div>
      </>
    );
  }

  return (
    <section className="container settings" data-testid="account-page">
      <header className="settings__head">
        <h1>{t('page.title')}</h1>
        {account.data && (
          <p className="lead">
            {t('page.lead', { username: account.data.username })}{' '}
            <span className="muted small">
              {t('page.since', { date: formatDate(account.data.created_at, i18n.language) })}
            </span>
          </p>
        )}
      </header>
      {content}
    </section>
  );
}
