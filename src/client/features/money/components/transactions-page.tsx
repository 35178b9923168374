// /transactions/{userID} (spec section 2; POST /payment/getTransactions?page): every credit and debit of
// an account, newest first, paged, with the balance after each and a CSV download. An advertiser sees
// their own; an admin anyone's (the server decides, a 403 says no).
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Transaction } from '#shared/schemas/money.ts';
import { TRANSACTIONS_PAGE_SIZE } from '#shared/schemas/money.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { intlLocale } from '#client/lib/format.ts';
import { receiptUrl, transactionsCsvUrl, useTransactions } from '../api';
import { Money, QueryState } from './money-parts';

function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

export function TransactionsPage() {
  const { t } = useTranslation('money');
  const userId = Number(useParams().userId);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data: user } = useCurrentUser();
  const query = useTransactions(userId, page);
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / TRANSACTIONS_PAGE_SIZE)) : 1;
  const goTo = (next: number) =>
    setParams((p) => {
      if (next > 1) p.set('page', String(next));
      else p.delete('page');
      return p;
    });

  return (
    <section className="container money" data-testid="transactions-page">
      <header className="money__head">
        <h1>{t('transactions.title')}</h1>
        {user && user.user_id !== userId && (
          <p className="money-note" role="note">
            {t('transactions.ofUser', { id: userId })}
          </p>
        )}
        {data && (
          <p className="lead" data-testid="transactions-balance">
            {t('summary.balance')}: <Money amount={data.balance} currency={data.currency} />
          </p>
        )}
      </header>
      {!data ? (
        <QueryState query={query} />
      ) : (
        <div className="money-card">
          <div className="money-card__head">
            <p className="muted">{t('transactions.count', { count: data.total })}</p>
            {data.total > 0 && (
              <a className="button" href={transactionsCsvUrl(userId)} download data-testid="transactions-csv">
                {t('transactions.csv')}
              </a>
            )}
          </div>
          {data.data.length === 0 ? (
            <p className="empty">
              {t('transactions.empty')}{' '}
              {user?.user_id === userId && <Link to={`/edit/load/${userId}`}>{t('links.load')}</Link>}
            </p>
          ) : (
            <table className="table money-table" data-testid="transactions-table">
              <thead>
                <tr>
                  <th scope="col">{t('transactions.date')}</th>
                  <th scope="col">{t('transactions.kind')}</th>
                  <th scope="col" className="money-table__num">
                    {t('transactions.amount')}
                  </th>
                  <th scope="col" className="money-table__num">
                    {t('transactions.balanceAfter')}
                  </th>
                  <th scope="col">{t('transactions.reference')}</th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((row) => (
                  <TransactionRow key={row.id} row={row} currency={data.currency} />
                ))}
              </tbody>
            </table>
          )}
          {pages > 1 && (
            <nav className="money-pager" aria-label={t('transactions.pages')}>
              <button type="button" className="button" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                {t('transactions.newer')}
              </button>
              <span data-testid="transactions-page-number">{t('transactions.pageOf', { page, pages })}</span>
              <button type="button" className="button" disabled={!data.has_more} onClick={() => goTo(page + 1)}>
                {t('transactions.older')}
              </button>
            </nav>
          )}
        </div>
      )}
    </section>
  );
}

function TransactionRow({ row, currency }: { row: Transaction; currency: string }) {
  const { t, i18n } = useTranslation('money');
  const bought = row.products.map((p) => t(`products.${p}.name`)).join(', ');
  return (
    <tr data-testid="transaction" data-kind={row.kind}>
      <td data-label={t('transactions.date')}>{formatDateTime(row.date, i18n.language)}</td>
      <td data-label={t('transactions.kind')}>
        {t(`kinds.${row.kind}`)}
        {row.method && <span className="muted small"> · {t(`methods.${row.method}`)}</span>}
      </td>
      <td
        data-label={t('transactions.amount')}
        className={`money-table__num money-table__amount--${row.amount < 0 ? 'debit' : 'credit'}`}
      >
        <Money amount={row.amount} currency={currency} signed />
      </td>
      <td data-label={t('transactions.balanceAfter')} className="money-table__num">
        <Money amount={row.balance_after} currency={currency} />
      </td>
      <td data-label={t('transactions.reference')} className="money-table__ref">
        {row.reference}
        {bought && <span className="muted small"> · {bought}</span>}
        {row.receipt_id !== null && (
          <>
            {' · '}
            <a href={receiptUrl(row.receipt_id, i18n.language)} data-testid="transaction-receipt">
              {t('receipt.link')}
            </a>
          </>
        )}
      </td>
    </tr>
  );
}
