// The profile as people see it, rendered by the SPA (profile page and profile modal) and by the server
// (`view` of GET /api/getProfile/{id}?render=1 and the first HTML of /profile/{id}). Pure: props in,
// markup out. No hooks, no browser APIs, no imports from client or server; the browser-only parts
// (bookmark, share, comments, report) come in as `actions` and `children`, the handlers as props, and
// the server simply passes none of them.
import type { MouseEvent as ReactMouseEvent, ReactNode, Ref } from 'react';
import { RATE_KEYS, WEEKDAYS } from '../constants';
import type { Profile } from '../schemas/directory';
import {
  formatAgo,
  formatDate,
  formatMoney,
  languageName,
  locationLabel,
  messengerHref,
  safeHttpUrl,
  telHref,
} from './format';
import { contactButtons, smsHref } from './contact';
import { VerifiedBadge } from './verified-badge';
import { PICTURE_SIZES, PictureImage } from './picture';

/** i18next's t, narrowed to what the view uses (keys of the "directory" namespace). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface LinkProps {
  href: string;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
  'aria-current'?: 'page';
  'data-testid'?: string;
  /** The SPA only (a card opens the profile modal); the server's plain links have none. */
  onClick?: (event: ReactMouseEvent<HTMLAnchorElement>) => void;
}
/** Internal links: a plain <a> on the server, the router's Link in the SPA. */
export type LinkRenderer = (props: LinkProps) => ReactNode;

/**
 * Sections of the edit screen that the view links to (`/edit/{id}?edit=<section>`, spec section 2:
 * "profile sections show edit links to the edit screen" when can_edit is true).
 */
export const EDIT_SECTIONS = [
  'heading',
  'phone',
  'media',
  'about',
  'rates',
  'availability',
  'details',
  'language',
  'location',
  'services',
  'links',
  'comments',
] as const;
export type EditSection = (typeof EDIT_SECTIONS)[number];

export const editHref = (id: number, section: EditSection) => `/edit/${id}?edit=${section}`;

/** Seconds since last seen under which the owner counts as online now. */
const ONLINE_SECONDS = 5 * 60;
const RATE_ROWS = ['30min', '60min', '90min', '120min', 'quickie', 'dinner', 'overnight'] as const;
const LINK_GROUPS = ['messenger', 'social', 'crypto'] as const;

export interface ProfileViewProps {
  profile: Profile;
  t: Translate;
  /** Display language (Intl formats: dates, money, relative times). */
  lang: string;
  /** Defaults to profile.can_edit. */
  canEdit?: boolean;
  renderLink?: LinkRenderer;
  /**
   * A tap on the phone number or another one-tap contact (text, WhatsApp, Telegram, Signal): counted as a
   * phone reveal (docs/decisions/0322); the link itself opens the app.
   */
  onPhoneClick?: () => void;
  /** A tap on a gallery thumbnail; without it the thumbnail opens the photo in a new tab. */
  onPhotoClick?: (index: number, event: ReactMouseEvent<HTMLAnchorElement>) => void;
  /** The gallery viewer is bound to the thumbnails (the modal starts it 150 ms after showing). */
  galleryReady?: boolean;
  videoRef?: Ref<HTMLVideoElement>;
  /** Browser-only controls shown under the contact (bookmark, share). */
  actions?: ReactNode;
  /** Browser-only sections after the profile (comments, report). */
  children?: ReactNode;
}

export const plainLink: LinkRenderer = ({ href, className, children, onClick, ...rest }) => (
  <a href={href} className={className} onClick={onClick} {...rest}>
    {children}
  </a>
);

export function ProfileView(props: ProfileViewProps) {
  const { profile, t, lang, actions, children } = props;
  const canEdit = props.canEdit ?? profile.can_edit;
  const link = props.renderLink ?? plainLink;
  const id = profile.user_id;
  const ids = (part: string) => `profile-${id}-${part}`;
  const edit = (section: EditSection) =>
    canEdit
      ? link({
          href: editHref(id, section),
          className: 'profile__edit',
          children: t('profile.editSection'),
          'aria-label': t('profile.editLabel', { section: t(`profile.sections.${section}`) }),
        })
      : null;
  const head = (part: EditSection | 'video' | 'gallery' | 'tours', title: string, section?: EditSection) => (
    <div className="profile__section-head">
      <h2 id={ids(part)}>{title}</h2>
      {section ? edit(section) : null}
    </div>
  );

  const city = profile.city?.name ?? null;
  const where = locationLabel(city, profile.place);

  return (
    <article className="profile profile-view" data-testid="profile" data-id={id}>
      <header className="profile__head">
        <div className="profile__avatar">
          {profile.avatar ? (
            <PictureImage
              picture={profile.avatar}
              sizes={PICTURE_SIZES.avatar}
              alt={t('profile.avatarAlt', { name: profile.screen_name })}
              loading="eager"
              fetchPriority="high"
            />
          ) : (
            <span className="card__placeholder" aria-hidden="true">
              {profile.screen_name.slice(0, 1).toUpperCase()}
            </span>
          )}
        </div>
        <div className="profile__intro">
          <div className="profile__title">
            {/* The h1 carries the name alone: search engines and the SSR test read it as is. */}
            <div className="profile__name" data-testid="profile-name">
              <h1>{profile.screen_name}</h1>
            </div>
            {profile.verified && <VerifiedBadge label={t('profile.verified')} />}
          </div>
          {profile.heading && <p className="profile__heading">{profile.heading}</p>}
          <p className="profile__location">
            {where}
            {profile.city?.country && <span className="muted">{`, ${profile.city.country}`}</span>}
          </p>
          {edit('heading')}
        </div>
        <div className="profile__more">
          <ul className="profile__facts">
            {profile.verified && (
              <li className="profile__verified" data-testid="profile-verified">
                <VerifiedBadge label="" />
                {profile.verified_at
                  ? t('profile.verifiedOn', { date: formatDate(profile.verified_at, lang) })
                  : t('profile.verified')}
              </li>
            )}
            {profile.age && (
              <li className="profile__age" data-testid="profile-age">
                {t('profile.age', { years: profile.age.years })}{' '}
                <span className="small muted">
                  {profile.age.checked ? t('profile.ageChecked') : t('profile.ageGiven')}
                </span>
              </li>
            )}
            {profile.available_until && (
              <li className="profile__available" data-testid="profile-available">
                <span className="badge badge--available-inline">{t('profile.availableNow')}</span>
              </li>
            )}
            {profile.last_seen !== null && (
              <li data-testid="profile-last-seen">
                {profile.last_seen < ONLINE_SECONDS
                  ? t('profile.onlineNow')
                  : t('profile.lastSeen', { time: formatAgo(profile.last_seen, lang) })}
              </li>
            )}
            <li>{t('profile.views', { count: profile.views })}</li>
          </ul>
          <div className="profile__contact">
            {profile.phone ? (
              <>
                <a
                  className="button button--primary button--large profile__phone"
                  href={telHref(profile.phone)}
                  onClick={props.onPhoneClick}
                  aria-label={t('profile.call', { phone: profile.phone })}
                  data-testid="profile-phone"
                >
                  <span aria-hidden="true">☎</span> {profile.phone}
                </a>
                <ContactButtons profile={profile} t={t} onTap={props.onPhoneClick} />
                <p className="small muted profile__mention">{t('profile.mention', { site: t('common:siteName') })}</p>
              </>
            ) : (
              <p className="muted">{t('profile.noPhone')}</p>
            )}
            {edit('phone')}
          </div>
          {actions && <div className="profile__actions">{actions}</div>}
        </div>
      </header>

      {profile.video && (
        <section className="profile__section" aria-labelledby={ids('video')}>
          {head('video', t('profile.video'), 'media')}
          <video
            ref={props.videoRef}
            className="profile__video"
            src={profile.video}
            poster={profile.poster ?? undefined}
            controls
            muted
            playsInline
            preload="metadata"
            data-testid="profile-video"
          />
        </section>
      )}

      {profile.gallery.length > 0 && (
        <section className="profile__section" aria-labelledby={ids('gallery')}>
          {head('gallery', t('profile.gallery'), 'media')}
          <ul className="gallery" data-testid="profile-gallery" data-gallery={props.galleryReady ? 'ready' : 'idle'}>
            {profile.gallery.map((photo, index) => (
              <li key={photo.id}>
                <a
                  href={photo.url}
                  target="_blank"
                  rel="noopener"
                  data-index={index}
                  onClick={props.onPhotoClick ? (event) => props.onPhotoClick?.(index, event) : undefined}
                >
                  <PictureImage
                    picture={photo.picture}
                    sizes={PICTURE_SIZES.thumb}
                    alt={t('profile.photo', { n: index + 1, name: profile.screen_name })}
                  />
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {(profile.about || canEdit) && (
        <section className="profile__section" aria-labelledby={ids('about')}>
          {head('about', t('profile.about'), 'about')}
          {profile.about ? (
            <p className="profile__about">{profile.about}</p>
          ) : (
            <p className="muted">{t('profile.empty')}</p>
          )}
        </section>
      )}

      <div className="profile__columns">
        <Rates profile={profile} t={t} lang={lang} head={head} canEdit={canEdit} />
        <Availability profile={profile} t={t} head={head} canEdit={canEdit} />
      </div>

      <Details profile={profile} t={t} lang={lang} head={head} />

      {profile.tours.length > 0 && (
        <section className="profile__section" aria-labelledby={ids('tours')}>
          {head('tours', t('profile.tours'), 'location')}
          <ul className="profile__tours" data-testid="profile-tours">
            {profile.tours.map((tour, index) => (
              <li key={index}>
                <strong>{tour.city}</strong> <span className="muted">{tourDates(tour, t, lang)}</span>
                {tour.coming && (
                  <>
                    {' '}
                    <span className="badge badge--coming" data-testid="tour-coming">
                      {t('profile.tourComing')}
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      {(profile.services.length > 0 || canEdit) && (
        <section className="profile__section" aria-labelledby={ids('services')}>
          {head('services', t('profile.services'), 'services')}
          {profile.services.length > 0 ? (
            <ul className="chips">
              {profile.services.map((service) => (
                <li key={service} className="chip chip--static">
                  {t(`services.${service}`, { defaultValue: service.replace(/_/g, ' ') })}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('profile.empty')}</p>
          )}
        </section>
      )}

      <Links profile={profile} t={t} head={head} canEdit={canEdit} />

      {children}
    </article>
  );
}

type Head = (part: EditSection | 'video' | 'gallery' | 'tours', title: string, section?: EditSection) => ReactNode;

function tourDates(tour: Profile['tours'][number], t: Translate, lang: string): string {
  const from = tour.from ? formatDate(tour.from, lang) : null;
  const until = tour.until ? formatDate(tour.until, lang) : null;
  if (from && until) return t('profile.tourDates', { from, until });
  if (from) return t('profile.tourFrom', { from });
  if (until) return t('profile.tourUntil', { until });
  return '';
}

function Rates({
  profile,
  t,
  lang,
  head,
  canEdit,
}: {
  profile: Profile;
  t: Translate;
  lang: string;
  head: Head;
  canEdit: boolean;
}) {
  const amount = (kind: keyof typeof RATE_KEYS, key: string) => {
    const offered = (RATE_KEYS[kind] as readonly string[]).includes(key);
    const value = offered ? profile.rates[kind][key] : null;
    return typeof value === 'number' ? value : null;
  };
  const rows = RATE_ROWS.filter((key) => amount('incall', key) !== null || amount('outcall', key) !== null);
  if (rows.length === 0 && !canEdit) return null;
  const cell = (kind: keyof typeof RATE_KEYS, key: string) => {
    const value = amount(kind, key);
    return value === null ? (
      <span className="muted" aria-label={t('profile.notOfferedLabel')}>
        {t('profile.notOffered')}
      </span>
    ) : (
      formatMoney(value, profile.currency, lang)
    );
  };
  return (
    <section className="profile__section" aria-labelledby={`profile-${profile.user_id}-rates`}>
      {head('rates', t('profile.rates'), 'rates')}
      {rows.length === 0 ? (
        <p className="muted">{t('profile.empty')}</p>
      ) : (
        <table className="table" data-testid="profile-rates">
          <thead>
            <tr>
              <th scope="col">{t('profile.duration')}</th>
              <th scope="col">{t('profile.incall')}</th>
              <th scope="col">{t('profile.outcall')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((key) => (
              <tr key={key}>
                <th scope="row">{t(`rates.${key}`)}</th>
                <td>{cell('incall', key)}</td>
                <td>{cell('outcall', key)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Availability({ profile, t, head, canEdit }: { profile: Profile; t: Translate; head: Head; canEdit: boolean }) {
  const { availability } = profile;
  const any = WEEKDAYS.some((day) => availability[day]);
  if (!any && !canEdit) return null;
  return (
    <section className="profile__section" aria-labelledby={`profile-${profile.user_id}-availability`}>
      {head('availability', t('profile.availability'), 'availability')}
      {!any ? (
        <p className="muted">{t('profile.empty')}</p>
      ) : (
        <table className="table" data-testid="profile-availability">
          <tbody>
            {WEEKDAYS.map((day) => {
              const slot = availability[day];
              return (
                <tr key={day}>
                  <th scope="row">{t(`weekdays.${day}`)}</th>
                  <td>
                    {slot ? (
                      t('profile.hours', { from: slot.from, until: slot.until })
                    ) : (
                      <span className="muted">{t('profile.unavailable')}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Details({ profile, t, lang, head }: { profile: Profile; t: Translate; lang: string; head: Head }) {
  const rows: Array<[string, string, string]> = [];
  if (profile.gender)
    rows.push([
      'gender',
      t('profile.gender'),
      t(`genders.${profile.gender.toLowerCase()}`, { defaultValue: profile.gender }),
    ]);
  if (profile.sexuality)
    rows.push([
      'sexuality',
      t('profile.sexuality'),
      t(`sexualities.${profile.sexuality.toLowerCase()}`, { defaultValue: profile.sexuality }),
    ]);
  if (profile.languages.length)
    rows.push([
      'languages',
      t('profile.languages'),
      profile.languages.map((code) => languageName(code, lang)).join(', '),
    ]);
  if (profile.personality.length)
    rows.push([
      'personality',
      t('profile.personality'),
      profile.personality.map((trait) => t(`traits.${trait}`, { defaultValue: trait.replace(/_/g, ' ') })).join(', '),
    ]);
  if (profile.landmark) rows.push(['landmark', t('profile.landmark'), profile.landmark]);
  if (rows.length === 0) return null;
  return (
    <section className="profile__section" aria-labelledby={`profile-${profile.user_id}-details`}>
      {head('details', t('profile.details'), 'details')}
      <dl className="details">
        {rows.map(([key, label, value]) => (
          <div key={key} className="details__row" data-detail={key}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Links({ profile, t, head, canEdit }: { profile: Profile; t: Translate; head: Head; canEdit: boolean }) {
  const groups = LINK_GROUPS.map((group) => ({
    group,
    entries: Object.entries(profile.links[group] ?? {}).filter(
      ([, value]) => typeof value === 'string' && value.trim(),
    ),
  })).filter((g) => g.entries.length > 0);
  if (groups.length === 0 && !canEdit) return null;
  return (
    <section className="profile__section" aria-labelledby={`profile-${profile.user_id}-links`}>
      {head('links', t('profile.links'), 'links')}
      {groups.length === 0 ? (
        <p className="muted">{t('profile.empty')}</p>
      ) : (
        <dl className="details profile__links" data-testid="profile-links">
          {groups.map(({ group, entries }) => (
            <div key={group} className="details__row">
              <dt>{t(`profile.linkGroups.${group}`)}</dt>
              <dd>
                <ul className="profile__link-list">
                  {entries.map(([name, value]) => {
                    const label = t(`profile.linkNames.${name.toLowerCase()}`, { defaultValue: name });
                    // Crypto addresses are never links: a wallet address is copied, not followed.
                    const href =
                      group === 'crypto'
                        ? null
                        : group === 'messenger'
                          ? messengerHref(name, value)
                          : safeHttpUrl(value);
                    return (
                      <li key={name}>
                        <span className="profile__link-name">{`${label}: `}</span>
                        {href ? (
                          <a href={href} target="_blank" rel="nofollow noopener noreferrer ugc">
                            {value}
                          </a>
                        ) : group === 'crypto' ? (
                          <code className="profile__address">{value}</code>
                        ) : (
                          <span>{value}</span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/**
 * Beside the call button: a text message and the messengers she gave, each opening the app with her number
 * (issue 27, item 5; docs/decisions/0322). Only with a phone number (the section shows none without one).
 */
function ContactButtons({ profile, t, onTap }: { profile: Profile; t: Translate; onTap?: () => void }) {
  if (!profile.phone) return null;
  const apps = contactButtons(profile.links.messenger, profile.phone);
  return (
    <ul className="profile__contacts" data-testid="profile-contacts">
      <li>
        <a
          className="button profile__contact-button"
          href={smsHref(profile.phone)}
          onClick={onTap}
          aria-label={t('profile.textLabel', { phone: profile.phone })}
          data-testid="contact-sms"
        >
          {t('profile.text')}
        </a>
      </li>
      {apps.map(({ app, href }) => (
        <li key={app}>
          <a
            className={`button profile__contact-button profile__contact-button--${app}`}
            href={href}
            target="_blank"
            rel="nofollow noopener noreferrer"
            onClick={onTap}
            aria-label={t('profile.messageOn', { app: t(`profile.linkNames.${app}`) })}
            data-testid={`contact-${app}`}
          >
            {t(`profile.linkNames.${app}`)}
          </a>
        </li>
      ))}
    </ul>
  );
}
