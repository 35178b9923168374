import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { VerifyBody } from '#shared/schemas/auth.ts';
import { currentUserKey, useCurrentUser } from '#client/lib/app-data.ts';
import { authKeys, resendVerification, verify } from './api';
import { ApiError } from '#client/lib/api.ts';
import { openLoginModal } from '#client/lib/dialogs.ts';
import { AuthCard, AuthStatus } from './auth-layout';

/**
 * /verify/{type}/{target}: the link of a verification mail. It posts {type, target} as soon as it
 * opens (no session needed: the link may be opened on another device) and shows the result.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation('auth');
  const { type = '', target = '' } = useParams();
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const body = { type, target };
  const valid = type === 'email' && VerifyBody.safeParse(body).success;
  // A query rather than an effect: it runs once per link even when the screen mounts twice.
  const result = useQuery({
    queryKey: authKeys.verify(type, target),
    queryFn: async () => {
      const answer = await verify({ type: 'email', target }, [422]);
      // The banner and the account screen read the verified flag.
      void queryClient.invalidateQueries({ queryKey: currentUserKey });
      void queryClient.invalidateQueries({ queryKey: ['account'] });
      return answer;
    },
    enabled: valid,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

  // An email change to an address someone registered meanwhile fails on "email"; the rest is a dead link.
  const emailTaken =
    result.error instanceof ApiError &&
    result.error.status === 422 &&
    !!(result.error.body as { errors?: Record<string, string[]> } | null)?.errors?.email;

  let content;
  if (!valid || result.isError) {
    content = (
      <>
        <AuthStatus tone="error">
          <p>{emailTaken ? t('verify.emailTaken') : t('verify.invalid')}</p>
        </AuthStatus>
        {user && !user.email_verified ? (
          <button
            type="button"
            className="button button--primary"
            onClick={() => void resendVerification().catch(() => null)}
          >
            {t('verify.resend')}
          </button>
        ) : !user ? (
          <p className="form__alt">
            {t('verify.loginToResend')}{' '}
            <button type="button" className="link-button" onClick={openLoginModal}>
              {t('verify.login')}
            </button>
          </p>
        ) : null}
      </>
    );
  } else if (result.isPending) {
    content = (
      <AuthStatus tone="pending">
        <p>{t('verify.checking')}</p>
      </AuthStatus>
    );
  } else {
    content = (
      <>
        <AuthStatus tone="success">
          <p>{t('verify.done')}</p>
        </AuthStatus>
        <p className="form__alt">
          <Link className="button button--primary" to={result.data.path ?? '/'}>
            {t('verify.continue')}
          </Link>
        </p>
      </>
    );
  }

  return (
    <AuthCard title={t('verify.title')} testId="verify-page">
      {content}
    </AuthCard>
  );
}
