// /edit/{id}: the overview, then the edit menu of spec section 2; `?edit=<section>` opens one section
// (the profile view's edit links use it), `?action=complete` walks the required sections in order
// (spec section 1, "Please complete your profile first.").
import { useEffect, useRef, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  EDIT_MENU,
  EDIT_MENU_GROUPS,
  menuLink,
  SECTION_OF_REQUIRED,
  sectionFromQuery,
  type MenuEntry,
} from '#shared/rules/edit-sections.ts';
import type { UpdateData } from '#shared/schemas/profile-edit.ts';
import { useCurrentUser } from '#client/lib/app-data.ts';
import { ApiError } from '#client/lib/api.ts';
import { CompletionWalk } from './completion';
import { useUpdateData } from './api';
import { Overview } from './overview';
import { SavedPhoneNotice } from './phone-fields';
import {
  AboutForm,
  AdStatusForm,
  AvailabilityForm,
  CommentsForm,
  DominatrixForm,
  GenderForm,
  HeadingForm,
  LanguageForm,
  LinksForm,
  LocationForm,
  PersonalityForm,
  PhoneForm,
  RatesForm,
  ScreenNameForm,
  ServicesForm,
  SexualityForm,
  type SectionProps,
} from './section-forms';
import { NoticesPanel } from '#client/features/notices/index.ts';
import { openAdminModal } from '#client/features/admin/index.ts';
import './edit.css';

export const SECTION_FORMS: Partial<Record<MenuEntry, ComponentType<SectionProps>>> = {
  services: ServicesForm,
  dominatrix: DominatrixForm,
  comments: CommentsForm,
  about: AboutForm,
  rates: RatesForm,
  location: LocationForm,
  personality: PersonalityForm,
  language: LanguageForm,
  gender: GenderForm,
  phone: PhoneForm,
  ad_status: AdStatusForm,
  links: LinksForm,
  screen_name: ScreenNameForm,
  heading: HeadingForm,
  sexuality: SexualityForm,
  availability: AvailabilityForm,
};

export function useEditTarget() {
  const id = Number(useParams().id);
  const { data: user } = useCurrentUser();
  const self = !user || user.user_id === id;
  return { id, self, isAdmin: user?.role === 'admin' };
}

export function EditFrame({ id, self, children }: { id: number; self: boolean; children: React.ReactNode }) {
  const { t } = useTranslation('edit');
  return (
    <section className="container edit" data-testid="edit-page">
      <header className="edit__head">
        <h1>{t('title')}</h1>
        <Link className="small" to={`/profile/${id}`}>
          {t('viewProfile')}
        </Link>
      </header>
      {!self && (
        <p className="edit__note" role="note">
          {t('adminNote', { id })}
        </p>
      )}
      {children}
    </section>
  );
}

export function LoadState({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('edit');
  if (!error)
    return (
      <p className="edit-card muted" aria-busy="true">
        {t('loading')}
      </p>
    );
  return (
    <div className="edit-card" role="alert">
      <p>{error instanceof ApiError && error.status === 403 ? t('forbidden') : t('failed')}</p>
      <button type="button" className="button" onClick={retry}>
        {t('retry')}
      </button>
    </div>
  );
}

export function EditPage() {
  const { id, self, isAdmin } = useEditTarget();
  const [params] = useSearchParams();
  const query = useUpdateData(id);
  const completing = params.get('action') === 'complete';
  const section = sectionFromQuery(params.get('edit'));
  return (
    <EditFrame id={id} self={self}>
      {!query.data ? (
        <LoadState error={query.error} retry={() => void query.refetch()} />
      ) : completing ? (
        <CompletionWalk id={id} self={self} data={query.data} />
      ) : (
        <>
          <NoticesPanel userId={id} />
          {/* A saved number the phone rule refuses, with its reason (docs/decisions/0311). */}
          {section !== 'phone' && <SavedPhoneNotice id={id} phone={query.data.phone} />}
          {section && <SectionPanel id={id} self={self} data={query.data} section={section} />}
          {/* The menu before the overview (its chart is a screen high on a phone): what she came to
              change is on the first screen, the figures below it (issue 23, item 6). */}
          <EditMenu id={id} data={query.data} isAdmin={isAdmin && !self} active={section} />
          <Overview id={id} />
        </>
      )}
    </EditFrame>
  );
}

function SectionPanel({
  id,
  self,
  data,
  section,
}: {
  id: number;
  self: boolean;
  data: UpdateData;
  section: MenuEntry;
}) {
  const { t } = useTranslation('edit');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
    ref.current?.focus({ preventScroll: true });
  }, [section]);
  const Form = SECTION_FORMS[section];
  const link = menuLink(section, id);
  return (
    <section
      ref={ref}
      className="edit-card edit-panel"
      aria-labelledby="edit-panel-title"
      tabIndex={-1}
      data-testid={`section-${section}`}
    >
      <Link className="small" to={`/edit/${id}`}>
        ‹ {t('menu.back')}
      </Link>
      <h2 id="edit-panel-title" className="edit-card__title">
        {t(`menu.${section}`)}
      </h2>
      <p className="muted small">{t(`lead.${section}`)}</p>
      {Form ? (
        // Keyed by the section so a form starts from the saved values each time it opens.
        <Form key={section} id={id} self={self} data={data} />
      ) : section === 'warn' || section === 'directory_admin' ? (
        <button
          type="button"
          className="button button--primary"
          aria-haspopup="dialog"
          onClick={() => openAdminModal(id)}
        >
          {t(`menu.${section}`)}
        </button>
      ) : (
        link && (
          <Link className="button button--primary" to={link}>
            {t(`menu.${section}`)}
          </Link>
        )
      )}
    </section>
  );
}

function EditMenu({
  id,
  data,
  isAdmin,
  active,
}: {
  id: number;
  data: UpdateData;
  isAdmin: boolean;
  active: MenuEntry | null;
}) {
  const { t } = useTranslation('edit');
  const needed = new Set(data.missing.map((m) => SECTION_OF_REQUIRED[m]));
  const kinds = new Map<MenuEntry, 'form' | 'link' | 'admin'>(EDIT_MENU.map((e) => [e.id, e.kind]));
  return (
    <nav className="edit-menu" aria-label={t('menu.label')} data-testid="edit-menu">
      {EDIT_MENU_GROUPS.filter((group) => group.id !== 'admin' || isAdmin).map((group) => (
        <section key={group.id} className="edit-menu__group" aria-labelledby={`edit-menu-${group.id}`}>
          <h2 id={`edit-menu-${group.id}`} className="edit-menu__group-title">
            {t(`menu.groups.${group.id}`)}
          </h2>
          <ul className="edit-menu__list" data-group={group.id}>
            {group.entries.map((entry) => {
              const kind = kinds.get(entry);
              if (kind === 'admin')
                // Warn and Directory Admin act on this profile: its admin modal (verify, flag, warn).
                return (
                  <li key={entry}>
                    <button
                      type="button"
                      className="edit-menu__entry"
                      aria-haspopup="dialog"
                      onClick={() => openAdminModal(id)}
                      data-section={entry}
                    >
                      <span className="edit-menu__name">{t(`menu.${entry}`)}</span>
                      <span className="edit-menu__lead small muted">{t(`lead.${entry}`)}</span>
                    </button>
                  </li>
                );
              const to = kind === 'form' ? `/edit/${id}?edit=${entry}` : menuLink(entry, id)!;
              return (
                <li key={entry}>
                  <Link
                    className={`edit-menu__entry${active === entry ? ' edit-menu__entry--active' : ''}`}
                    to={to}
                    aria-current={active === entry ? 'true' : undefined}
                    data-section={entry}
                  >
                    <span className="edit-menu__name">
                      {t(`menu.${entry}`)}
                      {needed.has(entry) && <span className="badge edit-menu__needed">{t('menu.needed')}</span>}
                      {kind !== 'form' && (
                        <span className="edit-menu__arrow" aria-label={t('menu.opens')}>
                          ›
                        </span>
                      )}
                    </span>
                    <span className="edit-menu__lead small muted">{t(`lead.${entry}`)}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </nav>
  );
}
