// Loading credits by bank transfer (spec section 2, /edit/load/{id}): the advertiser's own reference and
// the site's account. An admin credits the transfer by its reference when it arrives (DESIGN.md "Money").
import { useTranslation } from 'react-i18next';
import { useBankDetails } from '../api';
import { CopyValue } from './copy-value';
import { QueryState, SandboxNote, useFormatMoney } from './money-parts';

export function BankTransfer({ userId }: { userId: number }) {
  const { t } = useTranslation('money');
  const bank = useBankDetails(userId);
  const format = useFormatMoney(bank.data?.currency);
  if (!bank.data) return <QueryState query={bank} skeleton={1} />;
  const d = bank.data;
  return (
    <div className="money-bank" data-testid="bank-transfer">
      {d.sandbox && <SandboxNote>{` ${t('bank.sandbox')}`}</SandboxNote>}
      <p>{t('bank.intro', { minimum: format(d.minimum_topup), currency: d.currency })}</p>
      <dl className="money-copies">
        <CopyValue label={t('bank.reference')} value={d.reference} testId="bank-reference" />
        <CopyValue label={t('bank.holder')} value={d.holder} />
        <CopyValue label={t('bank.iban')} value={d.iban} testId="bank-iban" />
        <CopyValue label={t('bank.bic')} value={d.bic} />
        <CopyValue label={t('bank.bankName')} value={d.bank_name} />
      </dl>
      <p className="small muted">{t('bank.howLong')}</p>
    </div>
  );
}
