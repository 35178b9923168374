// Entry of the lazy "auth" section: sign in, register, email and PIN verification, forgotten
// password and recovery (spec section 2, auth routes; docs/decisions/0100).
import type { SectionProps } from '#client/app/sections.ts';
import { ComingSoon } from '#client/components/coming-soon.tsx';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { RecoverPage } from './recover-page';
import { RegisterPage } from './register-page';
import { VerifyPage } from './verify-page';
import { VerifyPinPage } from './verify-pin-page';
import './auth.css';

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
      return <VerifyPage />;
    case 'verify-pin':
      return <VerifyPinPage />;
    case 'recover':
      return <RecoverPage />;
    default:
      return <ComingSoon route={route} />;
  }
}
