// The admin's way from a public profile to the admin modal (decision 0506): on the profile page and in
// the profile modal, for a signed-in admin only. Both load this file lazily once the client knows the
// user is an admin, so visitors and advertisers fetch none of it; it lies where it moves nothing.
import { useTranslation } from 'react-i18next';
import { openAdminModal } from '#client/features/admin/index.ts';
import './admin-profile-control.css';

export function AdminProfileControl({ userId, placement }: { userId: number; placement: 'page' | 'modal' }) {
  // The admin texts: loaded with this control (it waits for them), never on a visitor's page.
  const { t } = useTranslation('admin');
  const button = (
    <button
      type="button"
      className={`button admin-profile-control admin-profile-control--${placement}`}
      aria-haspopup="dialog"
      title={t('profileControl.openHint')}
      onClick={() => openAdminModal(userId)}
      data-testid="admin-profile-control"
    >
      <span aria-hidden="true">⚑</span> {t('profileControl.open')}
    </button>
  );
  // On the page: laid over the back button's line (an anchor of no height), so the profile stays put.
  return placement === 'page' ? <div className="admin-profile-control__anchor">{button}</div> : button;
}
