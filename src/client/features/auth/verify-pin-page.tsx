import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PIN_LENGTH } from '#shared/constants.ts';
import { PinField } from '#shared/schemas/auth.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { useVerifyPin } from './api';
import { openLoginModal } from '#client/lib/dialogs.ts';
import { AuthCard } from './auth-layout';
const PinForm = z.object({ pin: PinField });

/**
 * /verify/pin/{hash}: the 6 digits texted to a new mobile number. Needs the session of the account
 * the PIN was sent for; the notice that answers leads back to the account screen.
 */
export function VerifyPinPage() {
  const { t } = useTranslation('auth');
  const { hash = '' } = useParams();
  const { data: user, isPending } = useCurrentUser();
  const verify = useVerifyPin(hash);
  const form = useSchemaForm(PinForm, { defaultValues: { pin: '' }, labels: { pin: t('fields.pin') } });

  return (
    <AuthCard title={t('pin.title')} lead={t('pin.lead', { count: PIN_LENGTH })} testId="verify-pin-page">
      {!isPending && !user && (
        <p className="auth__note">
          {t('pin.signIn')}{' '}
          <button type="button" className="link-button" onClick={openLoginModal}>
            {t('verify.login')}
          </button>
        </p>
      )}
      <Form form={form} className="form" data-testid="pin-form" onSubmit={({ pin }) => verify.mutateAsync(pin)}>
        <TextField
          form={form}
          name="pin"
          className="field--pin"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          placeholder={'•'.repeat(PIN_LENGTH)}
          normalize={(value) => value.replace(/\D/g, '').slice(0, PIN_LENGTH)}
        />
        <SubmitButton form={form}>{t('pin.submit')}</SubmitButton>
        {user && (
          <p className="form__alt">
            {t('pin.noCode')} <Link to={`/edit/account/${user.user_id}`}>{t('pin.again')}</Link>
          </p>
        )}
      </Form>
    </AuthCard>
  );
}
