// Pieces every admin screen uses: the panel's frame (title, admin search box, tabs), a person's line
// (opens the admin modal), pagination kept in the address, dates, and tiny bar charts.
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import type { AdminUserSummary } from '#shared/schemas/admin.ts';
import { PictureImage } from '#shared/views/picture.tsx';
import { AdminSearchBox } from '#client/components/admin-search-box.tsx';
import { openAdminModal } from './admin-modal-store';
import './admin.css';

export const ADMIN_TABS = [
  ['overview', '/admin/overview'],
  ['verify', '/admin/verify'],
  ['videos', '/admin/videos'],
  ['reports', '/admin/reports'],
  ['duplicates', '/admin/duplicates'],
  ['users', '/admin/users'],
  ['autoTopup', '/admin/auto-topup'],
  ['money', '/admin/money'],
  ['audit', '/admin/audit'],
] as const;

/**
 * The admin search box sits in the top bar for admins; `search` repeats it in the page (the users
 * screen, where it is the main control and a phone's collapsed menu would hide it).
 */
export function AdminFrame({
  title,
  lead,
  search,
  children,
}: {
  title: string;
  lead?: ReactNode;
  search?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const tabs = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: the current one comes into view.
  useEffect(() => {
    tabs.current?.querySelector('.active')?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, []);
  return (
    <div className="container admin">
      <div className="admin__head">
        <h1 className="admin__title">{title}</h1>
        {search && <AdminSearchBox className="admin__search" />}
      </div>
      <nav ref={tabs} className="tabs admin__tabs" aria-label={t('tabs.label')}>
        <ul>
          {ADMIN_TABS.map(([key, to]) => (
            <li key={key}>
              <NavLink to={to} className="tabs__tab">
                {t(`tabs.${key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {lead && <p className="lead admin__lead">{lead}</p>}
      {children}
    </div>
  );
}

/** The query parameter `name` of the address, and how to change it (page goes back to 1). */
export function useQueryParam(name: string, fallback: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? fallback;
  const set = (next: string) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (next === fallback) copy.delete(name);
      else copy.set(name, next);
      if (name !== 'page') copy.delete('page');
      return copy;
    });
  return [value, set];
}

export function usePage(): [number, (page: number) => void] {
  const [value, set] = useQueryParam('page', '1');
  const page = Math.max(1, Math.min(10_000, Number.parseInt(value, 10) || 1));
  return [page, (p) => set(String(p))];
}

export function Pager({ page, hasMore, onPage }: { page: number; hasMore: boolean; onPage: (page: number) => void }) {
  const { t } = useTranslation('admin');
  if (page === 1 && !hasMore) return null;
  return (
    <nav className="admin__pager" aria-label={t('pager.label')}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('pager.previous')}
      </button>
      <span className="muted">{t('pager.page', { page })}</span>
      <button type="button" className="button" disabled={!hasMore} onClick={() => onPage(page + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/** Status filter as a row of chips (pending / verified / declined...). */
export function Chips<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: ReadonlyArray<readonly [T, string]>;
  onChange: (value: T) => void;
  label: string;
}) {
  return (
    <div className="chips admin__chips" role="group" aria-label={label}>
      {options.map(([key, text]) => (
        <button
          key={key}
          type="button"
          className={`chip${key === value ? ' chip--active' : ''}`}
          aria-pressed={key === value}
          onClick={() => onChange(key)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

export function useDates() {
  const { i18n } = useTranslation();
  const lang = i18n.language || 'en';
  return {
    date: (iso: string | null | undefined) =>
      iso
        ? new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, { dateStyle: 'medium' }).format(new Date(iso))
        : '–',
    dateTime: (iso: string | null | undefined) =>
      iso
        ? new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : lang, { dateStyle: 'medium', timeStyle: 'short' }).format(
            new Date(iso),
          )
        : '–',
  };
}

/** A person as the queues show them: avatar, names, where, state; the button opens the admin modal. */
export function PersonLine({ user, compact }: { user: AdminUserSummary; compact?: boolean }) {
  const { t } = useTranslation('admin');
  const name = user.screen_name || user.username;
  return (
    <div className={`person${compact ? ' person--compact' : ''}`}>
      <div className="person__avatar">
        {user.avatar ? (
          <PictureImage picture={user.avatar} sizes="56px" alt="" className="person__img" />
        ) : (
          <span className="person__none" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        )}
      </div>
      <div className="person__text">
        <button type="button" className="link-button person__name" onClick={() => openAdminModal(user.user_id)}>
          {name}
        </button>
        <span className="person__meta muted small">
          #{user.user_id} · {user.username} · {user.email}
          {user.city ? ` · ${user.city}` : ''}
        </span>
        <span className="person__badges">
          {user.role === 'admin' && <span className="badge">{t('badges.admin')}</span>}
          {user.flagged && <span className="badge badge--danger">{t('badges.flagged')}</span>}
          {!user.flagged && !user.listed && <span className="badge">{t('badges.unlisted')}</span>}
          {user.verification_status === 'verified' && <span className="badge badge--ok">{t('badges.verified')}</span>}
          {user.status !== 'active' && <span className="badge badge--danger">{t(`badges.${user.status}`)}</span>}
        </span>
      </div>
    </div>
  );
}

/** A 30-day bar chart; empty days (null) leave a gap. */
export function Bars({ values, label, days }: { values: Array<number | null>; label: string; days: string[] }) {
  const max = Math.max(1, ...values.map((v) => v ?? 0));
  const w = 4;
  const gap = 1;
  const h = 40;
  return (
    <svg
      className="bars"
      viewBox={`0 0 ${values.length * (w + gap)} ${h}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      {values.map((v, i) =>
        v === null ? null : (
          <rect
            key={days[i] ?? i}
            x={i * (w + gap)}
            y={h - (v / max) * h}
            width={w}
            height={Math.max(v ? 1 : 0, (v / max) * h)}
          >
            <title>{`${days[i]}: ${v}`}</title>
          </rect>
        ),
      )}
    </svg>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
