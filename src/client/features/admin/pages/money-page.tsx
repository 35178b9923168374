// Products and prices, bank transfers recorded by reference, balance adjustments with a reason, refunds
// of loads and the queue of held accounts with what was charged beyond a load (decision 0423), and the
// provider notifications that named no payment of ours (decision 0420): the money module's admin calls
// (each through its ledger service, each in the audit log).
import { useMemo, useState } from 'react';
import { z } from 'zod';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  AdjustBalanceBody,
  RecordBankTransferBody,
  RefundLoadBody,
  ReleaseHoldBody,
  UpdateProductBody,
  type Product,
} from '#shared/schemas/money.ts';
import { CheckboxField, Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { useProducts } from '#client/features/money/index.ts';
import { formatMinor, parseMajorInput, toMajorInput } from '#client/lib/money-format.ts';
import { ApiError } from '#client/lib/api.ts';
import {
  useAdjustBalance,
  useHeldAccounts,
  useRecordBankTransfer,
  useRefundableLoad,
  useRefundLoad,
  useReleaseHold,
  useUpdateProduct,
} from '../api';
import { AdminFrame } from '../parts';

/** "12,50" -> 1250; "-3" -> -300 (adjustments are signed); NaN when it is no amount (the schema says so). */
const amountOf = (currency: string) => (v: unknown) => {
  if (typeof v === 'number') return v;
  const text = String(v ?? '').trim();
  const negative = text.startsWith('-');
  const minor = parseMajorInput(negative ? text.slice(1) : text, currency);
  return minor === null ? Number.NaN : negative ? -minor : minor;
};

/** What a recorded transfer or an adjustment says: done (or already done, by its idempotency key) and the balance. */
function ledgerNotice(
  t: TFunction<'admin'>,
  result: { duplicate: boolean; user_id: number; balance: number },
  doneKey: 'money.credited' | 'money.adjusted',
  currency: string,
  language: string,
) {
  return t(result.duplicate ? 'money.duplicate' : doneKey, {
    user: result.user_id,
    balance: formatMinor(result.balance, currency, language),
  });
}

export function MoneyPage() {
  const { t } = useTranslation('admin');
  const { data } = useProducts();
  return (
    <AdminFrame title={t('money.title')} lead={t('money.lead')}>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : (
        <div className="admin-money">
          <section className="admin-card">
            <h2 className="admin-card__title">{t('money.products')}</h2>
            {data.data.map((p) => (
              <ProductForm key={`${p.code}-${p.price}-${p.active}`} product={p} currency={data.currency} />
            ))}
          </section>
          <section className="admin-card" data-testid="admin-providers">
            <h2 className="admin-card__title">{t('money.providers')}</h2>
            <dl>
              {(['card', 'crypto'] as const).map((method) => {
                const p = data.providers[method];
                return (
                  <div key={method}>
                    <dt>{t(`money.provider.${method}`)}</dt>
                    <dd data-testid={`provider-${method}`}>
                      {!p
                        ? t('money.providerOff')
                        : `${p.name}: ${t(p.sandbox ? 'money.providerSandbox' : p.test_mode ? 'money.providerTest' : 'money.providerLive')}`}
                    </dd>
                  </div>
                );
              })}
            </dl>
          </section>
          <HeldAccounts />
          <RefundForm />
          <BankForm currency={data.currency} />
          <AdjustForm currency={data.currency} />
        </div>
      )}
    </AdminFrame>
  );
}

function ProductForm({ product, currency }: { product: Product; currency: string }) {
  const { t, i18n } = useTranslation('admin');
  const update = useUpdateProduct();
  // The shared rule, with the price typed in major units ("5,00") read as minor units first.
  const schema = useMemo(
    () => UpdateProductBody.extend({ price: z.preprocess(amountOf(currency), UpdateProductBody.shape.price) }),
    [currency],
  );
  const form = useSchemaForm(schema, {
    defaultValues: {
      code: product.code,
      price: toMajorInput(product.price, currency, i18n.language),
      active: product.active,
      ...(product.duration_days ? { duration_days: product.duration_days } : {}),
    },
    labels: { price: t('money.price', { currency }), active: t('money.active'), duration_days: t('money.days') },
  });
  return (
    <Form form={form} className="admin-inline-form admin-product" onSubmit={(body) => update.mutateAsync(body)}>
      <h3 className="admin-product__name">
        {t(`money.productNames.${product.code}`)}{' '}
        <span className="muted small">{formatMinor(product.price, currency, i18n.language)}</span>
      </h3>
      <TextField form={form} name="price" inputMode="decimal" />
      {product.duration_days !== null && (
        <TextField form={form} name="duration_days" inputMode="numeric" registerOptions={{ valueAsNumber: true }} />
      )}
      <CheckboxField form={form} name="active">
        {t('money.active')}
      </CheckboxField>
      <SubmitButton form={form}>{t('money.save')}</SubmitButton>
    </Form>
  );
}

function BankForm({ currency }: { currency: string }) {
  const { t, i18n } = useTranslation('admin');
  const record = useRecordBankTransfer();
  const [done, setDone] = useState<string | null>(null);
  const schema = useMemo(
    () =>
      RecordBankTransferBody.extend({ amount: z.preprocess(amountOf(currency), RecordBankTransferBody.shape.amount) }),
    [currency],
  );
  const form = useSchemaForm(schema, {
    defaultValues: { reference: '', amount: '', bank_transaction_id: '' },
    labels: {
      reference: t('money.reference'),
      amount: t('money.amount', { currency }),
      bank_transaction_id: t('money.bankTransactionId'),
    },
  });
  return (
    <section className="admin-card">
      <h2 className="admin-card__title">{t('money.bank')}</h2>
      <p className="muted small">{t('money.bankLead')}</p>
      <Form
        form={form}
        className="admin-stack-form"
        onSubmit={async (body) => {
          const result = await record.mutateAsync(body);
          setDone(ledgerNotice(t, result, 'money.credited', currency, i18n.language));
          form.reset();
        }}
      >
        <TextField form={form} name="reference" placeholder="DIR00001234" autoCapitalize="characters" />
        <TextField form={form} name="amount" inputMode="decimal" />
        <TextField form={form} name="bank_transaction_id" />
        <SubmitButton form={form}>{t('money.record')}</SubmitButton>
      </Form>
      {done && (
        <p className="admin__done" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

function AdjustForm({ currency }: { currency: string }) {
  const { t, i18n } = useTranslation('admin');
  const adjust = useAdjustBalance();
  const [done, setDone] = useState<string | null>(null);
  const blank = () => ({
    user_id: '' as unknown as number,
    amount: '' as unknown as number,
    reason: '',
    idempotency_key: newKey(),
  });
  const form = useSchemaForm(AdjustBalanceBody, {
    defaultValues: blank(),
    labels: { user_id: t('money.userId'), amount: t('money.signedAmount', { currency }), reason: t('money.reason') },
  });
  return (
    <section className="admin-card">
      <h2 className="admin-card__title">{t('money.adjust')}</h2>
      <p className="muted small">{t('money.adjustLead')}</p>
      <Form
        form={form}
        className="admin-stack-form"
        onSubmit={async (body) => {
          const result = await adjust.mutateAsync(body);
          setDone(ledgerNotice(t, result, 'money.adjusted', currency, i18n.language));
          form.reset(blank());
        }}
      >
        <TextField form={form} name="user_id" inputMode="numeric" registerOptions={{ valueAsNumber: true }} />
        <TextField form={form} name="amount" inputMode="decimal" />
        <TextField form={form} name="reason" />
        <SubmitButton form={form}>{t('money.apply')}</SubmitButton>
      </Form>
      {done && (
        <p className="admin__done" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

/** "12,50" -> 1250; empty: undefined (the whole refundable rest). */
const optionalAmountOf = (currency: string) => (v: unknown) =>
  String(v ?? '').trim() === '' ? undefined : amountOf(currency)(v);

function RefundForm() {
  const { t, i18n } = useTranslation('admin');
  const [asked, setAsked] = useState('');
  const [paymentId, setPaymentId] = useState<number | null>(null);
  // Kept here: the load refetched after a refund is drawn anew, the outcome stays.
  const [done, setDone] = useState<{ text: string; link: string | null } | null>(null);
  const load = useRefundableLoad(paymentId);
  const found = load.data ?? null;
  const missing = load.error instanceof ApiError && (load.error.status === 404 || load.error.status === 422);
  return (
    <section className="admin-card" data-testid="admin-refund">
      <h2 className="admin-card__title">{t('money.refund')}</h2>
      <p className="muted small">{t('money.refundLead')}</p>
      <form
        className="admin-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const id = Number(asked.replace(/^R-\d{4}-/i, '').trim());
          setPaymentId(Number.isSafeInteger(id) && id > 0 ? id : null);
          setDone(null);
        }}
      >
        <div className="field">
          <label className="field__label" htmlFor="refund-payment-id">
            {t('money.paymentId')}
          </label>
          <input
            id="refund-payment-id"
            className="field__input"
            name="payment_id"
            inputMode="numeric"
            value={asked}
            onChange={(e) => setAsked(e.target.value)}
          />
        </div>
        <button type="submit" className="button">
          {t('money.lookUp')}
        </button>
      </form>
      {load.isFetching && <InlineSpinner label={t('loading')} />}
      {missing && (
        <p className="field__error" role="alert">
          {t('money.loadNotFound')}
        </p>
      )}
      {found && !load.isFetching && (
        <RefundLoad
          key={`${found.payment_id}-${found.reversed}`}
          load={found}
          language={i18n.language}
          onDone={setDone}
        />
      )}
      {done && (
        <p className="admin__done" role="status" data-testid="admin-refund-done">
          {done.text}
          {done.link && (
            <>
              {' '}
              {t('money.claimLink')}{' '}
              <a href={done.link} target="_blank" rel="noreferrer" data-testid="admin-refund-claim">
                {done.link}
              </a>
            </>
          )}
        </p>
      )}
    </section>
  );
}

function RefundLoad({
  load,
  language,
  onDone,
}: {
  load: NonNullable<ReturnType<typeof useRefundableLoad>['data']>;
  language: string;
  onDone: (done: { text: string; link: string | null }) => void;
}) {
  const { t } = useTranslation('admin');
  const refund = useRefundLoad();
  const money = (v: number) => formatMinor(v, load.currency, language);
  const schema = useMemo(
    () => RefundLoadBody.extend({ amount: z.preprocess(optionalAmountOf(load.currency), RefundLoadBody.shape.amount) }),
    [load.currency],
  );
  const blank = () => ({
    payment_id: load.payment_id,
    amount: '' as unknown as number,
    reason: '',
    idempotency_key: newKey(),
  });
  const form = useSchemaForm(schema, {
    defaultValues: blank(),
    labels: { amount: t('money.refundAmount', { currency: load.currency }), reason: t('money.reason') },
  });
  return (
    <div data-testid="admin-refund-load">
      <p>
        {t('money.loadSummary', {
          id: load.payment_id,
          user: load.user_id,
          amount: money(load.amount),
          method: load.method,
          provider: load.provider,
          reversed: money(load.reversed),
          refundable: money(load.refundable),
        })}
      </p>
      <p className="muted small" data-testid="admin-refund-via">
        {t(`money.via.${load.via}`)}
      </p>
      {load.via !== 'at_provider' && load.refundable > 0 && (
        <Form
          form={form}
          className="admin-stack-form"
          onSubmit={async (body) => {
            const result = await refund.mutateAsync(body);
            onDone({
              text: t(result.duplicate ? 'money.duplicate' : result.held ? 'money.refundedHeld' : 'money.refunded', {
                user: result.user_id,
                balance: money(result.balance),
              }),
              link: result.claim_url,
            });
            form.reset(blank());
          }}
        >
          <TextField form={form} name="amount" inputMode="decimal" />
          <TextField form={form} name="reason" />
          <SubmitButton form={form}>{t('money.refundDo')}</SubmitButton>
        </Form>
      )}
    </div>
  );
}

function HeldAccounts() {
  const { t, i18n } = useTranslation('admin');
  const { data } = useHeldAccounts();
  return (
    <section className="admin-card" data-testid="admin-held">
      <h2 className="admin-card__title">{t('money.held')}</h2>
      <p className="muted small">{t('money.heldLead')}</p>
      {!data ? (
        <InlineSpinner label={t('loading')} />
      ) : data.data.length === 0 ? (
        <p className="muted">{t('money.noHeld')}</p>
      ) : (
        <ul className="admin-list">
          {data.data.map((h) => (
            <li key={h.user_id} data-testid={`held-${h.user_id}`}>
              <p>
                {t('money.heldRow', {
                  user: h.user_id,
                  name: h.username,
                  balance: formatMinor(h.balance, data.currency, i18n.language),
                  reason: t(`money.holdReason.${h.reason}`),
                  since: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(h.since)),
                })}
              </p>
              {h.beyond_load > 0 && (
                <p className="small" data-testid={`held-beyond-${h.user_id}`}>
                  {t('money.heldBeyondLoad', { amount: formatMinor(h.beyond_load, data.currency, i18n.language) })}
                </p>
              )}
              <ReleaseForm userId={h.user_id} />
            </li>
          ))}
        </ul>
      )}
      {data && <UnmatchedNotifications data={data} />}
    </section>
  );
}

/** Signed notifications that named no payment of ours (decision 0420): for the admin to match by hand. */
function UnmatchedNotifications({ data }: { data: NonNullable<ReturnType<typeof useHeldAccounts>['data']> }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <div data-testid="admin-unmatched">
      <h3 className="admin-card__title">{t('money.unmatched')}</h3>
      <p className="muted small">{t('money.unmatchedLead')}</p>
      {data.unmatched.length === 0 ? (
        <p className="muted">{t('money.noUnmatched')}</p>
      ) : (
        <ul className="admin-list">
          {data.unmatched.map((u) => (
            <li key={`${u.provider} ${u.event_id} ${u.reference}`}>
              {t('money.unmatchedRow', {
                provider: u.provider,
                type: u.type,
                event: u.event_id,
                reference: u.reference,
                amount: u.amount === null ? '–' : formatMinor(u.amount, data.currency, i18n.language),
                when: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
                  new Date(u.received_at),
                ),
                deliveries: u.deliveries,
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ReleaseForm({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const release = useReleaseHold();
  const form = useSchemaForm(ReleaseHoldBody, {
    defaultValues: { user_id: userId, reason: '' },
    labels: { reason: t('money.releaseReason') },
  });
  return (
    <Form form={form} className="admin-inline-form" onSubmit={(body) => release.mutateAsync(body)}>
      <TextField form={form} name="reason" />
      <SubmitButton form={form}>{t('money.release')}</SubmitButton>
    </Form>
  );
}
