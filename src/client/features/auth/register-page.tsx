import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ACCOUNT_PURGE_DAYS, MIN_AGE } from '#shared/constants.ts';
import { RegisterBody } from '#shared/schemas/auth.ts';
import { DialogDescription, DialogFrame } from '#client/components/dialogs/dialog-frame.tsx';
import {
  CheckboxField,
  EmailField,
  Form,
  SubmitButton,
  TextField,
  useSchemaForm,
} from '#client/components/form/index.ts';
import { useRegister } from './api';
import { AuthCard } from './auth-layout';
import { NewPasswordField, UsernameField } from './account-fields';
/** The latest birth date that is 18 today, for the date picker's max. */
function latestBirthDate(today = new Date()): string {
  const y = today.getFullYear() - MIN_AGE;
  const m = String(today.getMonth() + 1).padStart(2, '0');
  const d = String(today.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

const TERMS = ['adults', 'noBookings', 'ownContent', 'photos', 'safety', 'deletion'] as const;

/** /register: email, username, password, a date of birth proving 18+, and the terms. */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const register = useRegister();
  const [termsOpen, setTermsOpen] = useState(false);
  const form = useSchemaForm(RegisterBody, {
    defaultValues: { email: '', username: '', password: '', date_of_birth: '', terms: false },
    labels: {
      email: t('fields.email'),
      username: t('fields.username'),
      password: t('fields.password'),
      date_of_birth: t('fields.dateOfBirth'),
      terms: t('fields.terms'),
    },
  });

  return (
    <AuthCard title={t('register.title')} lead={t('register.lead')} testId="register-page">
      <Form
        form={form}
        className="form"
        data-testid="register-form"
        onSubmit={async (body) => {
          const session = await register.mutateAsync(body);
          // The profile completion page (or home when nothing is missing).
          await navigate(session.path, { replace: true });
        }}
      >
        <EmailField form={form} name="email" />
        <UsernameField form={form} name="username" hint={(lengths) => t('register.usernameHint', lengths)} />
        <NewPasswordField form={form} name="password" hint={(rule) => t('register.passwordHint', rule)} />
        <TextField
          form={form}
          name="date_of_birth"
          type="date"
          min="1900-01-01"
          max={latestBirthDate()}
          autoComplete="bday"
          hint={t('register.dateOfBirthHint', { age: MIN_AGE })}
        />
        <CheckboxField form={form} name="terms">
          <Trans
            t={t}
            i18nKey="register.acceptTerms"
            values={{ age: MIN_AGE }}
            components={{
              terms: (
                <button
                  type="button"
                  className="link-button"
                  onClick={(event) => {
                    // The button sits inside the checkbox's label: opening the terms must not tick it.
                    event.preventDefault();
                    setTermsOpen(true);
                  }}
                />
              ),
            }}
          />
        </CheckboxField>
        <SubmitButton form={form}>{t('register.submit')}</SubmitButton>
        <p className="form__alt">
          {t('register.haveAccount')} <Link to="/login">{t('register.login')}</Link>
        </p>
      </Form>
      <DialogFrame
        open={termsOpen}
        onClose={() => setTermsOpen(false)}
        title={t('terms.title')}
        layer="modal"
        described
        className="dialog--wide"
        testId="terms-dialog"
      >
        <DialogDescription asChild>
          <div className="terms">
            <p>{t('terms.intro')}</p>
            <ol>
              {TERMS.map((key) => (
                <li key={key}>{t(`terms.${key}`, { age: MIN_AGE, days: ACCOUNT_PURGE_DAYS })}</li>
              ))}
            </ol>
          </div>
        </DialogDescription>
        <div className="dialog__actions">
          <button type="button" className="button button--primary" onClick={() => setTermsOpen(false)}>
            {t('terms.close')}
          </button>
        </div>
      </DialogFrame>
    </AuthCard>
  );
}
