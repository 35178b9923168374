// The three ways to pay or load (DESIGN.md "Money"), as tabs: card, crypto, bank transfer. Card and
// crypto load an amount in one idempotent makePayment: for `cart` (at least what the cart needs and the
// minimum top-up) the cart is then paid from the balance; a `load` (Load Credits) leaves the cart as it
// is (docs/decisions/0406). A bank transfer is credited when it arrives.
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import type { LoadMethod, MakePaymentBody, PaymentPurpose } from '#shared/schemas/money.ts';
import { TextField, useSchemaForm } from '#client/components/form/index.ts';
import { ApiError, report } from '#client/lib/api.ts';
import { showValidationErrors } from '#client/lib/dialogs.ts';
import { newIdempotencyKey, useMakePayment, type PaymentData } from '../api';
import { parseMajorInput, toMajorInput } from '#client/lib/money-format.ts';
import { BankTransfer } from './bank-transfer';
import { CardPayment } from './card-payment';
import { CryptoPayment } from './crypto-payment';
import { useFormatMoney } from './money-parts';
import type { PayOutcome, PayRequest } from './pay-attempt';

export interface LoadMethodsProps {
  data: PaymentData;
  userId: number;
  initial: LoadMethod;
  /** Where the payer comes back to after a confirmation step (with ?payment={id}). */
  returnPath: string;
  /** `load`: credits only, the cart stays as it is; `cart`: load what is missing, then pay the cart. */
  purpose: PaymentPurpose;
}

export function LoadMethods({ data, userId, initial, returnPath, purpose }: LoadMethodsProps) {
  const { t, i18n } = useTranslation('money');
  const [, setParams] = useSearchParams();
  const offered = (['card', 'crypto', 'bank'] as const).filter((m) =>
    m === 'bank' ? data.methods.bank : !!data.methods[m],
  );
  const [method, setMethod] = useState<LoadMethod>(offered.includes(initial) ? initial : (offered[0] ?? 'bank'));
  const pay = useMakePayment();
  const format = useFormatMoney(data.currency);
  const cart = data.cart;
  const paysCart = purpose === 'cart' && cart.items.length > 0;
  const minimum = paysCart ? Math.max(cart.amount_to_pay, data.minimum_topup) : data.minimum_topup;

  const schema = useMemo(
    () =>
      z.object({
        amount: z.string().superRefine((text, ctx) => {
          const minor = parseMajorInput(text, data.currency);
          if (minor === null) ctx.addIssue({ code: 'custom', message: t('amount.invalid') });
          else if (minor < minimum)
            ctx.addIssue({ code: 'custom', message: t('amount.tooSmall', { minimum: format(minimum) }) });
        }),
      }),
    [data.currency, minimum, t, format],
  );
  const amountForm = useSchemaForm(schema, {
    defaultValues: { amount: toMajorInput(minimum, data.currency, i18n.language) },
    labels: { amount: t('amount.label', { currency: data.currency }) },
  });
  // One key per intended payment; a new one once an attempt has a definite answer.
  const key = useRef(newIdempotencyKey());

  /** Validates the amount, pays, and says what happened; the payer is sent on where needed. */
  const submit = async (request: PayRequest): Promise<PayOutcome | null> => {
    if (!(await amountForm.trigger())) return null;
    const amount = parseMajorInput(amountForm.getValues('amount'), data.currency)!;
    // A load does not read the cart, so it has no total to expect.
    const expected = purpose === 'cart' ? { expected_total: cart.total } : {};
    const common = { amount, purpose, idempotency_key: key.current, ...expected };
    const body: MakePaymentBody =
      request.method === 'card'
        ? {
            method: 'card',
            ...(request.card_token ? { card_token: request.card_token } : {}),
            return_path: returnPath,
            ...common,
          }
        : { method: 'crypto', ...common };
    try {
      const result = await pay.mutateAsync(body);
      key.current = newIdempotencyKey();
      if (result.status === 'requires_action' && result.payment?.next_action) {
        // The confirmation step is the provider's page; it sends the payer back to returnPath.
        window.location.assign(result.payment.next_action.url);
      } else if (result.payment) {
        const id = result.payment.id;
        setParams({ payment: String(id) });
        window.scrollTo({ top: 0 });
      }
      return { ok: true, result };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A refused attempt charged nothing: the next one is a new intent.
      key.current = newIdempotencyKey();
      if (error.status !== 422) return { ok: false, fields: {} };
      const body422 = error.body as { message: string; errors: Record<string, string[]> };
      const fields: Record<string, string> = {};
      const rest: Record<string, string[]> = {};
      for (const [field, messages] of Object.entries(body422.errors ?? {})) {
        if (field === 'amount') amountForm.setError('amount', { message: messages[0] });
        else if (field === 'card_token') fields[field] = messages[0];
        else rest[field] = messages;
      }
      if (Object.keys(rest).length) showValidationErrors({ message: body422.message, errors: rest });
      if (!Object.keys(body422.errors ?? {}).length) report(error);
      return { ok: false, fields };
    }
  };

  // A site with no way to pay configured (decision 1018): said, instead of an empty choice.
  if (!offered.length)
    return (
      <div className="money-card money-methods" data-testid="load-methods">
        <p role="status">{t('methods.none')}</p>
      </div>
    );

  return (
    <div className="money-card money-methods" data-testid="load-methods">
      <div className="money-tabs" role="tablist" aria-label={t('method.choose')}>
        {offered.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`method-tab-${m}`}
            aria-selected={method === m}
            aria-controls={`method-panel-${m}`}
            className={`money-tabs__tab${method === m ? ' money-tabs__tab--active' : ''}`}
            onClick={() => setMethod(m)}
          >
            {t(`methods.${m}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`method-panel-${method}`} aria-labelledby={`method-tab-${method}`}>
        {method !== 'bank' && (
          <TextField
            form={amountForm}
            name="amount"
            className="money-amount-field"
            inputMode="decimal"
            autoComplete="off"
            hint={
              paysCart
                ? t('amount.hintCart', { minimum: format(minimum), total: format(cart.total) })
                : t('amount.hintLoad', { minimum: format(minimum) })
            }
          />
        )}
        {method === 'card' && data.methods.card && (
          <CardPayment info={data.methods.card} userId={userId} busy={pay.isPending} submit={submit} />
        )}
        {method === 'crypto' && data.methods.crypto && <CryptoPayment busy={pay.isPending} submit={submit} />}
        {method === 'bank' && <BankTransfer userId={userId} />}
      </div>
    </div>
  );
}
