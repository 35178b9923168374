// The 18+ notice of DESIGN.md ("Visitors see an 18+ notice once"): the site statement with Accept and
// Leave, shown until accepted in this browser (localStorage). A sheet over the bottom of the screen,
// not a blocking gate: the directory shows no explicit material, the page stays usable, and since it is
// out of the page flow neither showing nor accepting it moves the content (docs/decisions/0707).
// Signed-in users proved their age at registration and never see it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '#client/lib/app-data.ts';

export const ADULT_NOTICE_KEY = 'adult-notice';
/** Where "Leave" goes: a neutral page outside the site. */
export const LEAVE_URL = 'https://www.google.com/';

function accepted(): boolean {
  try {
    return window.localStorage.getItem(ADULT_NOTICE_KEY) === 'accepted';
  } catch {
    return false;
  }
}

export function AdultNotice() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const [hidden, setHidden] = useState(accepted);
  if (hidden || user) return null;

  const accept = () => {
    try {
      window.localStorage.setItem(ADULT_NOTICE_KEY, 'accepted');
    } catch {
      // Without storage the notice comes back on the next visit; nothing else breaks.
    }
    setHidden(true);
  };

  return (
    <section className="adult-notice" aria-labelledby="adult-notice-title" data-testid="adult-notice">
      <div className="adult-notice__inner">
        <p className="adult-notice__title" id="adult-notice-title">
          <strong className="badge badge--adult">18+</strong> {t('adultNotice.title')}
        </p>
        <p className="adult-notice__text">
          {t('statement')} {t('adultNotice.confirm')}
        </p>
        <div className="adult-notice__actions">
          <button type="button" className="button button--primary" onClick={accept}>
            {t('adultNotice.accept')}
          </button>
          <a className="button adult-notice__leave" href={LEAVE_URL} rel="noreferrer">
            {t('adultNotice.leave')}
          </a>
        </div>
      </div>
    </section>
  );
}
