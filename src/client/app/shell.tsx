// The application shell of spec section 1: top bar and menu, body id, document title, nav
// width, the covering spinner, dialogs, and the start-up work for a signed-in user.
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { BODY_ID_SUFFIX } from '#shared/routes.ts';
import { AdultNotice } from '#client/components/adult-notice.tsx';
import { DialogHost } from './dialog-host';
import { Footer } from '#client/components/footer.tsx';
import { SectionErrorBoundary } from '#client/components/section-error-boundary.tsx';
import { ProfileModalHost } from '#client/features/directory/profile-modal-host.tsx';
import { LoadingOverlay, Spinner } from '#client/components/spinner.tsx';
import { TopBar } from './top-bar';
import { needsCompletion } from '#shared/rules/completion.ts';
import { useCurrentUser, useOnlinePing } from '#client/lib/app-data.ts';
import { useTitleOverride } from '#client/lib/document-title.ts';
import { applyUserLanguage } from '#client/lib/i18n.ts';
import { notify } from '#client/lib/dialogs.ts';
import { readLastCountry } from '#client/lib/last-country.ts';
import { useCurrentRoute } from './route-meta';
import { ScrollRestoration } from './scroll-restoration';
import { useSignedInParts } from './signed-in-parts';

const TOLD_KEY = 'completion-told';

/** True when this browser session has already been told to complete this profile; records it otherwise. */
function toldThisSession(userId: number): boolean {
  try {
    const told = (window.sessionStorage.getItem(TOLD_KEY) ?? '').split(',');
    if (told.includes(String(userId))) return true;
    window.sessionStorage.setItem(TOLD_KEY, [...told.filter(Boolean), userId].join(','));
    return false;
  } catch {
    // No storage (private mode): at most once per page load, by the caller's own guard.
    return false;
  }
}

export function Shell() {
  const { t, i18n } = useTranslation();
  const { meta, params } = useCurrentRoute();
  const location = useLocation();
  const navigate = useNavigate();
  const titleOverride = useTitleOverride();
  const { data: user } = useCurrentUser();
  useOnlinePing(user?.user_id);
  // The admin's and the unconfirmed account's parts load only for them (0712); the bar changes to the
  // signed-in one when they are there, in one go.
  const { parts, ready } = useSignedInParts(user);
  const barUser = ready ? (user ?? null) : null;

  useEffect(() => {
    document.body.id = `${meta?.name ?? 'redirect'}${BODY_ID_SUFFIX}`;
  }, [meta?.name]);

  useEffect(() => {
    const site = t('siteName');
    const page = titleOverride ?? (meta ? t(`titles:${meta.title}`) : '');
    document.title = page && page !== site ? `${page} | ${site}` : site;
  }, [t, i18n.language, meta, titleOverride]);

  // Start-up work once the user data arrives (spec section 1).
  const redirected = useRef(false);
  useEffect(() => {
    if (!user) return;
    void applyUserLanguage(user.language);
    // The account screen (/edit/account/{id}, an edit route of spec section 2) stays reachable too.
    const exempt = meta?.section === 'edit' || meta?.section === 'auth' || meta?.section === 'settings';
    if (!redirected.current && needsCompletion(user) && !exempt) {
      redirected.current = true;
      const walk = `/edit/${user.user_id}?action=complete`;
      // "Complete your Profile" (spec section 8) over the page she was on, once per browser session, and
      // never over the walk itself, which says the same in its own heading (issue 23, item 7).
      if (toldThisSession(user.user_id)) void navigate(walk);
      else
        void notify({
          title: t('completion.title'),
          message: t('completion.message'),
          icon: 'info',
          ok: t('dialog.ok'),
        }).then(() => navigate(walk));
    }
  }, [user, meta?.section, navigate, t]);

  const nav = meta?.nav ?? 'contained';
  const country = params.country ?? readLastCountry();

  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <AdultNotice />
      <TopBar
        width={nav}
        user={barUser}
        country={country}
        adminSearch={parts.admin && barUser?.role === 'admin' ? <parts.admin.AdminSearchBox /> : null}
      />
      {/* Not on the verification screens themselves: they say where the user stands. */}
      {parts.banner && ready && <parts.banner.EmailBanner user={user} hidden={meta?.name === 'verify'} />}
      <main id="main" className={`main main--${nav}`} tabIndex={-1}>
        <SectionErrorBoundary resetKey={location.pathname}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </SectionErrorBoundary>
      </main>
      <Footer />
      <LoadingOverlay />
      <ProfileModalHost />
      {parts.admin && <parts.admin.AdminModalHost />}
      <DialogHost />
      <ScrollRestoration />
    </>
  );
}
