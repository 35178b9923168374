// Entry of the lazy "auth" section: sign in, register, email and PIN verification, forgotten
// password and recovery (spec section 2, auth routes; docs/decisions/0100).
import type { SectionProps } from '#client/lib/route-paths.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { ForgotPasswordPage } from '#client/features/auth/forgot-password-page.tsx';
import { LoginPage } from '#client/features/auth/login-page.tsx';
import { RecoverPage } from '#client/features/auth/recover-page.tsx';
import { RegisterPage } from '#client/features/auth/register-page.tsx';
import { ConfirmEmailPage } from '#client/features/auth/confirm-email-page.tsx';
import { VerifyPinPage } from '#client/features/auth/verify-pin-page.tsx';
import '#client/features/auth/auth.css';

export function AuthSection({ route }: SectionProps) {
  switch (route) {
    case 'login':
    case 'new-login':
      return <LoginPage />;
    case 'register':
      return <RegisterPage />;
    case 'forgot-password':
      return <ForgotPasswordPage />;
    case 'verify':
      return <ConfirmEmailPage />;
    case 'verify-pin':
      return <VerifyPinPage />;
    case 'recover':
      return <RecoverPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
