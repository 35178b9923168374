import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { RATE_KEYS, WEEKDAYS } from '#shared/constants';
import { HANDLE_PARAM } from '#client/app/route-paths';
import { BackButton } from '#client/components/back-button';
import { VerifiedBadge } from '#client/components/verified-badge';
import { useProfile, type Profile, type ProfileRef } from '#client/features/directory/api';
import { useDocumentTitle } from '#client/lib/document-title';
import { formatAgo, formatDate, formatMoney, languageName, locationLabel, telHref } from '#client/lib/format';
import { NOT_FOUND_PATH } from '#client/lib/navigation';

/** Seconds since last seen under which the owner counts as online now. */
const ONLINE_SECONDS = 5 * 60;

function useProfileRef(byName: boolean): ProfileRef | null {
  const params = useParams();
  if (byName) {
    const handle = params[HANDLE_PARAM] ?? '';
    return handle.length > 1 ? { name: handle.slice(1) } : null;
  }
  const id = Number(params.id);
  return Number.isInteger(id) && id > 0 ? { id } : null;
}

export function ProfilePage({ byName }: { byName: boolean }) {
  const ref = useProfileRef(byName);
  if (!ref) return <Navigate to={NOT_FOUND_PATH} replace />;
  return <ProfileLoader profileRef={ref} />;
}

function ProfileLoader({ profileRef }: { profileRef: ProfileRef }) {
  const { t } = useTranslation('directory');
  const profile = useProfile(profileRef);
  useDocumentTitle(profile.data ? profile.data.title || profile.data.screen_name : null);

  if (profile.data) return <ProfileView profile={profile.data} />;
  return (
    <div className="container profile" aria-busy={profile.isPending}>
      <BackButton label={t('profile.back')} />
      {profile.isError ? (
        <p className="empty">
          <button type="button" className="button" onClick={() => void profile.refetch()}>
            {t('common:errors.reload')}
          </button>
        </p>
      ) : (
        <div className="profile__skeleton" />
      )}
    </div>
  );
}

export function ProfileView({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('directory');
  const lang = i18n.language;
  const city = profile.city?.name ?? null;

  return (
    <article className="container profile" data-testid="profile" data-id={profile.user_id}>
      <BackButton label={t('profile.back')} />
      <header className="profile__head">
        <div className="profile__avatar">
          {profile.avatar ? (
            <img src={profile.avatar} alt="" width={240} height={320} />
          ) : (
            <span className="card__placeholder">{profile.screen_name.slice(0, 1).toUpperCase()}</span>
          )}
        </div>
        <div className="profile__intro">
          <h1 className="profile__name">
            <span data-testid="profile-name">{profile.screen_name}</span>
            {profile.verified && <VerifiedBadge label={t('profile.verified')} />}
          </h1>
          {profile.heading && <p className="profile__heading">{profile.heading}</p>}
          <p className="profile__location">{locationLabel(city, profile.place)}</p>
        </div>
        <div className="profile__more">
          <ul className="profile__facts">
            {profile.verified && profile.verified_at && (
              <li className="profile__verified">
                {t('profile.verifiedOn', { date: formatDate(profile.verified_at, lang) })}
              </li>
            )}
            {profile.last_seen !== null && (
              <li>
                {profile.last_seen < ONLINE_SECONDS
                  ? t('profile.onlineNow')
                  : t('profile.lastSeen', { time: formatAgo(profile.last_seen, lang) })}
              </li>
            )}
            <li>{t('profile.views', { count: profile.views })}</li>
          </ul>
          <Contact phone={profile.phone} />
          {profile.can_edit && (
            <Link className="button" to={`/edit/${profile.user_id}`}>
              {t('profile.edit')}
            </Link>
          )}
        </div>
      </header>

      {profile.gallery.length > 0 && (
        <section className="profile__section" aria-labelledby="gallery">
          <h2 id="gallery">{t('profile.gallery')}</h2>
          <ul className="gallery">
            {profile.gallery.map((photo, index) => (
              <li key={photo.id}>
                <a href={photo.url} target="_blank" rel="noopener">
                  <img
                    src={photo.thumb}
                    alt={t('profile.photo', { n: index + 1, name: profile.screen_name })}
                    loading="lazy"
                    width={160}
                    height={213}
                  />
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      {profile.about && (
        <section className="profile__section" aria-labelledby="about">
          <h2 id="about">{t('profile.about')}</h2>
          <p className="profile__about">{profile.about}</p>
        </section>
      )}

      <div className="profile__columns">
        <Rates profile={profile} />
        <Availability availability={profile.availability} />
      </div>

      <Details profile={profile} />

      {profile.services.length > 0 && (
        <section className="profile__section" aria-labelledby="services">
          <h2 id="services">{t('profile.services')}</h2>
          <ul className="chips">
            {profile.services.map((service) => (
              <li key={service} className="chip chip--static">
                {t(`services.${service}`, { defaultValue: service })}
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

function Contact({ phone }: { phone: string | null }) {
  const { t } = useTranslation('directory');
  if (!phone) return <p className="muted">{t('profile.noPhone')}</p>;
  return (
    <div className="profile__contact">
      <a
        className="button button--primary button--large"
        href={telHref(phone)}
        aria-label={t('profile.call', { phone })}
        data-testid="profile-phone"
      >
        <span aria-hidden="true">☎</span> {phone}
      </a>
      <p className="small muted">{t('profile.mention', { site: t('common:siteName') })}</p>
    </div>
  );
}

const RATE_ROWS = ['30min', '60min', '90min', '120min', 'quickie', 'dinner', 'overnight'] as const;

function Rates({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('directory');
  const value = (kind: keyof typeof RATE_KEYS, key: string) => {
    const offered = (RATE_KEYS[kind] as readonly string[]).includes(key);
    const amount = offered ? profile.rates[kind][key] : null;
    return typeof amount === 'number' ? amount : null;
  };
  const rows = RATE_ROWS.filter((key) => value('incall', key) !== null || value('outcall', key) !== null);
  if (rows.length === 0) return null;
  const cell = (kind: keyof typeof RATE_KEYS, key: string) => {
    const amount = value(kind, key);
    return amount === null ? (
      <span className="muted">{t('profile.notOffered')}</span>
    ) : (
      formatMoney(amount, profile.currency, i18n.language)
    );
  };
  return (
    <section className="profile__section" aria-labelledby="rates">
      <h2 id="rates">{t('profile.rates')}</h2>
      <table className="table">
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
    </section>
  );
}

function Availability({ availability }: { availability: Profile['availability'] }) {
  const { t } = useTranslation('directory');
  if (!WEEKDAYS.some((day) => availability[day])) return null;
  return (
    <section className="profile__section" aria-labelledby="availability">
      <h2 id="availability">{t('profile.availability')}</h2>
      <table className="table">
        <tbody>
          {WEEKDAYS.map((day) => {
            const slot = availability[day];
            return (
              <tr key={day}>
                <th scope="row">{t(`weekdays.${day}`)}</th>
                <td>
                  {slot ? `${slot.from} – ${slot.until}` : <span className="muted">{t('profile.unavailable')}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function Details({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('directory');
  const lang = i18n.language;
  const rows: Array<[string, string]> = [];
  if (profile.gender)
    rows.push([t('profile.gender'), t(`genders.${profile.gender.toLowerCase()}`, { defaultValue: profile.gender })]);
  if (profile.sexuality)
    rows.push([
      t('profile.sexuality'),
      t(`sexualities.${profile.sexuality.toLowerCase()}`, { defaultValue: profile.sexuality }),
    ]);
  if (profile.languages.length)
    rows.push([t('profile.languages'), profile.languages.map((code) => languageName(code, lang)).join(', ')]);
  if (profile.personality.length) rows.push([t('profile.personality'), profile.personality.join(', ')]);
  if (profile.landmark) rows.push([t('profile.landmark'), profile.landmark]);
  for (const tour of profile.tours) {
    const from = tour.from ? formatDate(tour.from, lang) : null;
    const until = tour.until ? formatDate(tour.until, lang) : null;
    const dates =
      from && until
        ? t('profile.tourDates', { from, until })
        : from
          ? t('profile.tourFrom', { from })
          : until
            ? t('profile.tourUntil', { until })
            : '';
    rows.push([t('profile.tours'), dates ? `${tour.city} (${dates})` : tour.city]);
  }
  if (rows.length === 0) return null;
  return (
    <section className="profile__section" aria-labelledby="details">
      <h2 id="details">{t('profile.details')}</h2>
      <dl className="details">
        {rows.map(([label, value], index) => (
          <div key={index} className="details__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
