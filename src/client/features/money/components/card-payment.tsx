// Paying by card (DESIGN.md "Money", PCI DSS SAQ-A). With an acquirer's hosted page (Verotel, and the
// sandbox since decision 0421) the card is entered on that page and this screen only sends the payer
// there. With a provider that has a tokenizer (none is configured today), number, expiry and CVC go from
// this form to the tokenizer, never to our API, which only ever sees the token; "Save on this device"
// keeps the token and the last four digits in this browser and offers them next time.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { PaymentData } from '#shared/schemas/money.ts';
import { SANDBOX_TEST_CARDS } from '#shared/sandbox-cards.ts';
import { CheckboxField, Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { CardRefused, formatCardNumber, formatExpiry, parseExpiry, tokenizeCard } from '../card-tokenizer';
import { forgetCard, readSavedCard, saveCard, type SavedCard } from '../saved-card';
import type { PayOutcome, PayRequest } from './pay-attempt';
import { SandboxNote } from './money-parts';

type CardInfo = NonNullable<PaymentData['methods']['card']>;

/** Which field a tokenizer refusal belongs to. */
const REFUSAL_FIELD = { invalid_number: 'number', invalid_expiry: 'expiry', invalid_cvc: 'cvc' } as const;

interface CardPaymentProps {
  info: CardInfo;
  userId: number;
  busy: boolean;
  submit: (request: PayRequest) => Promise<PayOutcome | null>;
}

export function CardPayment(props: CardPaymentProps) {
  return props.info.hosted ? <HostedCardPayment {...props} /> : <TokenizedCardPayment {...props} />;
}

/** The name an acquirer is shown by. */
const providerName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * An acquirer with a hosted payment page (Verotel FlexPay, decision 0420; the sandbox, decision 0421): the
 * spec's card fields (number, name, expiry, CVC, saving the card) are on its page, not here; this button
 * sends the payer there.
 */
function HostedCardPayment({ info, busy, submit }: CardPaymentProps) {
  const { t } = useTranslation('money');
  const [problem, setProblem] = useState<string | null>(null);
  const provider = providerName(info.provider);
  const go = async () => {
    setProblem(null);
    const outcome = await submit({ method: 'card' });
    const refusal = outcome && !outcome.ok ? outcome.fields.card_token : undefined;
    if (refusal) setProblem(refusal);
  };
  return (
    <div className="money-card-form" data-testid="card-payment">
      {info.sandbox && <SandboxNote />}
      {info.test_mode && !info.sandbox && (
        <div className="money-sandbox" role="note" data-testid="test-mode-note">
          <strong className="money-sandbox__badge">{t('card.hosted.testBadge')}</strong> {t('card.hosted.testText')}
        </div>
      )}
      <p>{t('card.hosted.text', { provider })}</p>
      {problem && (
        <p className="money-error" role="alert" data-testid="card-problem">
          {problem}
        </p>
      )}
      <button
        type="button"
        className="button button--primary button--large"
        data-testid="pay-card-hosted"
        disabled={busy}
        onClick={() => void go()}
      >
        {t('card.hosted.pay')}
      </button>
    </div>
  );
}

function TokenizedCardPayment({ info, userId, busy, submit }: CardPaymentProps) {
  const { t } = useTranslation('money');
  const [saved, setSaved] = useState<SavedCard | null>(() => readSavedCard(userId));
  const [useSaved, setUseSaved] = useState(!!saved);
  const [problem, setProblem] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

  const schema = useMemo(
    () =>
      z.object({
        name: z.string().trim().max(200),
        number: z.string().refine((v) => /^\d{12,19}$/.test(v.replace(/\s/g, '')), t('card.errors.number')),
        expiry: z.string().refine((v) => {
          const e = parseExpiry(v);
          const now = new Date();
          return !!e && (e.year > now.getFullYear() || (e.year === now.getFullYear() && e.month >= now.getMonth() + 1));
        }, t('card.errors.expiry')),
        cvc: z.string().regex(/^\d{3,4}$/, t('card.errors.cvc')),
        save: z.boolean(),
      }),
    [t],
  );
  const form = useSchemaForm(schema, {
    defaultValues: { name: '', number: '', expiry: '', cvc: '', save: false },
    labels: { name: t('card.name'), number: t('card.number'), expiry: t('card.expiry'), cvc: t('card.cvc') },
  });

  const pay = async (token: string, fromSaved: boolean) => {
    const outcome = await submit({ method: 'card', card_token: token });
    const refusal = outcome && !outcome.ok ? outcome.fields.card_token : undefined;
    if (refusal) {
      setProblem(refusal);
      // A saved card that was refused: the form for another card comes up (the saved one stays on offer).
      if (fromSaved) setUseSaved(false);
    }
  };

  const onNewCard = async (values: z.infer<typeof schema>) => {
    setProblem(null);
    setWorking(true);
    try {
      const expiry = parseExpiry(values.expiry)!;
      let card;
      try {
        card = await tokenizeCard(info.tokenize_url, {
          number: values.number,
          exp_month: expiry.month,
          exp_year: expiry.year,
          cvc: values.cvc,
          ...(values.name ? { name: values.name } : {}),
        });
      } catch (error) {
        if (!(error instanceof CardRefused)) throw error;
        if (error.code in REFUSAL_FIELD)
          form.setError(REFUSAL_FIELD[error.code as keyof typeof REFUSAL_FIELD], {
            message: t(`card.refused.${error.code}`),
          });
        else setProblem(t(`card.refused.${error.code}`));
        return;
      }
      if (values.save) {
        saveCard(userId, card);
        setSaved({ token: card.token, last4: card.last4 });
      }
      // The card's digits are not needed any more: they leave the page's memory with the form.
      form.reset({ ...form.getValues(), number: '', cvc: '', expiry: '' });
      await pay(card.token, false);
    } finally {
      setWorking(false);
    }
  };

  const onSavedCard = async () => {
    if (!saved) return;
    setProblem(null);
    setWorking(true);
    try {
      await pay(saved.token, true);
    } finally {
      setWorking(false);
    }
  };

  const disabled = busy || working;
  return (
    <div className="money-card-form" data-testid="card-payment">
      {info.sandbox && (
        <SandboxNote>
          <ul className="money-test-cards" data-testid="test-cards">
            {SANDBOX_TEST_CARDS.map((c) => (
              <li key={c.number}>
                <code>{formatCardNumber(c.number)}</code> {t(`card.test.${c.behaviour}`)}
              </li>
            ))}
          </ul>
          <p className="small">{t('card.test.any')}</p>
        </SandboxNote>
      )}

      {saved && (
        <fieldset className="money-choice">
          <legend className="field__label">{t('card.which')}</legend>
          <label className="money-choice__option">
            <input type="radio" name="card-choice" checked={useSaved} onChange={() => setUseSaved(true)} />{' '}
            {t('card.saved', { last4: saved.last4 })}
          </label>
          <label className="money-choice__option">
            <input type="radio" name="card-choice" checked={!useSaved} onChange={() => setUseSaved(false)} />{' '}
            {t('card.another')}
          </label>
          <button
            type="button"
            className="button button--ghost small"
            onClick={() => {
              forgetCard(userId);
              setSaved(null);
              setUseSaved(false);
            }}
          >
            {t('card.forget')}
          </button>
        </fieldset>
      )}

      {problem && (
        <p className="money-error" role="alert" data-testid="card-problem">
          {problem}
        </p>
      )}

      {saved && useSaved ? (
        <button
          type="button"
          className="button button--primary button--large"
          data-testid="pay-card"
          disabled={disabled}
          onClick={() => void onSavedCard()}
        >
          {t('card.paySaved', { last4: saved.last4 })}
        </button>
      ) : (
        <Form form={form} className="form" onSubmit={onNewCard} data-testid="card-form">
          <TextField form={form} name="name" autoComplete="cc-name" />
          <TextField
            form={form}
            name="number"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 5678 9012 3456"
            normalize={formatCardNumber}
          />
          <div className="money-card-form__row">
            <TextField
              form={form}
              name="expiry"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder={t('card.expiryPlaceholder')}
              normalize={formatExpiry}
            />
            <TextField form={form} name="cvc" inputMode="numeric" autoComplete="cc-csc" maxLength={4} />
          </div>
          <CheckboxField form={form} name="save">
            {t('card.save')}
          </CheckboxField>
          <p className="small muted">{t('card.privacy')}</p>
          <SubmitButton form={form} className="button--large">
            {t('card.pay')}
          </SubmitButton>
        </Form>
      )}
    </div>
  );
}
