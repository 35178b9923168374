// The admin modal of spec section 2: titled 'Admin - ' plus the user's screen name, with a Flag toggle
// and a Close button; around them what an admin needs to judge the account, and the warning.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PictureImage } from '#shared/views/picture.tsx';
import { DialogFrame } from '#client/components/dialogs/dialog-frame.tsx';
import { InlineSpinner } from '#client/components/spinner.tsx';
import { confirm } from '#client/lib/dialogs.ts';
import { useAppConfig } from '#client/lib/app-data.ts';
import { formatMinor } from '#client/lib/money-format.ts';
import { useAdminUser, useFlag, useWarn } from './api';
import { closeAdminModal, useAdminModal } from './admin-modal-store';
import { useDates } from './parts';
import './admin.css';

export function AdminModal() {
  const { t, i18n } = useTranslation('admin');
  const { userId } = useAdminModal();
  const { data: user, isPending } = useAdminUser(userId);
  const flag = useFlag();
  const warn = useWarn();
  const { dateTime } = useDates();
  const currency = useAppConfig().data?.currency ?? 'EUR';
  const shown = user && user.user_id === userId ? user : null;
  const name = shown ? shown.screen_name || shown.username : '';

  const onWarn = async () => {
    if (!shown) return;
    const ok = await confirm({
      title: t('modal.warnConfirmTitle'),
      message: t('modal.warnConfirmMessage', { name }),
      confirm: t('modal.warnConfirm'),
      cancel: t('modal.cancel'),
    });
    if (ok) await warn.mutateAsync(shown.user_id).catch(() => undefined);
  };

  return (
    <DialogFrame
      open={userId !== null}
      onClose={closeAdminModal}
      layer="modal"
      title={t('modal.title', { name })}
      className="admin-modal"
      testId="admin-modal"
    >
      {!shown ? (
        isPending ? (
          <InlineSpinner label={t('loading')} />
        ) : null
      ) : (
        <div className="admin-modal__body">
          <div className="admin-modal__who">
            {shown.avatar && (
              <PictureImage picture={shown.avatar} sizes="96px" alt="" className="admin-modal__avatar" />
            )}
            <dl className="admin-modal__facts">
              <dt>{t('modal.id')}</dt>
              <dd>#{shown.user_id}</dd>
              <dt>{t('modal.username')}</dt>
              <dd>{shown.username}</dd>
              <dt>{t('modal.email')}</dt>
              <dd>{shown.email}</dd>
              <dt>{t('modal.phone')}</dt>
              <dd>{shown.phone ?? '–'}</dd>
              <dt>{t('modal.city')}</dt>
              <dd>{shown.city ?? '–'}</dd>
              <dt>{t('modal.status')}</dt>
              <dd>
                {t(`modal.statuses.${shown.status}`)} · {t(shown.listed ? 'modal.listed' : 'modal.notListed')} ·{' '}
                {t(`modal.ad.${shown.ad_status}`)}
              </dd>
              <dt>{t('modal.verification')}</dt>
              <dd>
                {t(`verification.${shown.verification_status}`)}
                {shown.verified_at ? ` (${dateTime(shown.verified_at)})` : ''}
              </dd>
              <dt>{t('modal.balance')}</dt>
              <dd>{formatMinor(shown.balance, currency, i18n.language)}</dd>
              <dt>{t('modal.media')}</dt>
              <dd>{shown.media_count}</dd>
              <dt>{t('modal.openReports')}</dt>
              <dd>{shown.open_reports}</dd>
              <dt>{t('modal.joined')}</dt>
              <dd>{dateTime(shown.created_at)}</dd>
              <dt>{t('modal.lastSeen')}</dt>
              <dd>{dateTime(shown.last_seen_at)}</dd>
            </dl>
          </div>

          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              // The switch moves at once; the server's answer then confirms (or a refusal puts it back).
              checked={flag.isPending ? (flag.variables.flagged ?? shown.flagged) : shown.flagged}
              disabled={flag.isPending}
              onChange={(e) =>
                void flag.mutateAsync({ user_id: shown.user_id, flagged: e.target.checked }).catch(() => undefined)
              }
            />
            <span className="switch__track" aria-hidden="true" />
            <span className="switch__label">{t('modal.flag')}</span>
            <span className="muted small">{t(shown.flagged ? 'modal.flaggedHint' : 'modal.unflaggedHint')}</span>
          </label>

          <ul className="admin-modal__links">
            <li>
              <Link to={`/profile/${shown.user_id}`} onClick={closeAdminModal}>
                {t('modal.profile')}
              </Link>
            </li>
            <li>
              <Link to={`/edit/${shown.user_id}`} onClick={closeAdminModal}>
                {t('modal.edit')}
              </Link>
            </li>
            <li>
              <Link to={`/transactions/${shown.user_id}`} onClick={closeAdminModal}>
                {t('modal.transactions')}
              </Link>
            </li>
            <li>
              <Link to={`/admin/audit?target=${shown.user_id}`} onClick={closeAdminModal}>
                {t('modal.audit')}
              </Link>
            </li>
          </ul>

          <div className="dialog__actions admin-modal__actions">
            <button
              type="button"
              className="button admin__danger"
              onClick={() => void onWarn()}
              disabled={warn.isPending}
            >
              {t('modal.warn')}
            </button>
            <button type="button" className="button button--primary" onClick={closeAdminModal}>
              {t('modal.close')}
            </button>
          </div>
          {warn.data && warn.data.user.user_id === shown.user_id && (
            <p className="admin__done" role="status">
              {t('modal.warned', { count: warn.data.deleted })}
            </p>
          )}
        </div>
      )}
    </DialogFrame>
  );
}
