// /edit/{id}?action=complete (spec section 1): the required sections one after the other, in the order of
// profile-derive's missingFields, ending with the avatar; after the last save the profile is listed and the
// walk says where to find it.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SECTION_OF_REQUIRED } from '#shared/rules/edit-sections.ts';
import { REQUIRED_FIELDS, type RequiredField, type UpdateData } from '#shared/schemas/profile-edit.ts';
import { AvatarCard, useMediaState } from '#client/features/media/index.ts';
import { useRefreshProfile } from './api';
import {
  AboutForm,
  GenderForm,
  HeadingForm,
  LocationForm,
  PhoneForm,
  ScreenNameForm,
  type SectionProps,
} from './section-forms';

const STEP_FORMS: Record<Exclude<RequiredField, 'avatar'>, (p: SectionProps) => React.ReactNode> = {
  screenName: ScreenNameForm,
  heading: HeadingForm,
  gender: GenderForm,
  cityId: LocationForm,
  phone: PhoneForm,
  about: AboutForm,
};

export function CompletionWalk({ id, self, data }: { id: number; self: boolean; data: UpdateData }) {
  const { t } = useTranslation(['edit', 'common']);
  // Which step is open: the first missing one, unless the advertiser picked another.
  const [picked, setPicked] = useState<RequiredField | null>(null);
  const missing = new Set(data.missing);
  const current: RequiredField | null = picked && missing.has(picked) ? picked : (data.missing[0] ?? null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus({ preventScroll: false });
  }, [current]);

  if (!current) return <Finished id={id} data={data} />;
  const n = REQUIRED_FIELDS.indexOf(current) + 1;
  return (
    <section className="edit-card completion" aria-labelledby="completion-title" data-testid="completion">
      <h2 id="completion-title" className="edit-card__title">
        {t('complete.title')}
      </h2>
      <p className="completion__message">{t('complete.message')}</p>
      <ol className="completion__steps" aria-label={t('complete.steps')}>
        {REQUIRED_FIELDS.map((field) => {
          const done = !missing.has(field);
          return (
            <li
              key={field}
              className={`completion__step${done ? ' completion__step--done' : ''}${field === current ? ' completion__step--current' : ''}`}
              aria-current={field === current ? 'step' : undefined}
            >
              {done || field === current ? (
                <span>
                  {done && <span aria-label={t('complete.done')}>✓ </span>}
                  {t(`required.${field}`)}
                </span>
              ) : (
                <button type="button" className="link-button" onClick={() => setPicked(field)}>
                  {t(`required.${field}`)}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <div className="completion__form" data-testid={`step-${SECTION_OF_REQUIRED[current]}`}>
        <p className="small muted">{t('complete.step', { n, total: REQUIRED_FIELDS.length })}</p>
        <h3 ref={heading} tabIndex={-1} className="completion__step-title">
          {t(`required.${current}`)}
        </h3>
        {current === 'avatar' ? (
          <AvatarStep id={id} self={self} />
        ) : (
          (() => {
            const Step = STEP_FORMS[current];
            return (
              <>
                <p className="muted small">{t(`lead.${SECTION_OF_REQUIRED[current]}`)}</p>
                <Step key={current} id={id} self={self} data={data} walk onSaved={() => setPicked(null)} />
              </>
            );
          })()
        )}
      </div>
      <p className="small">
        <Link to={`/edit/${id}`}>{t('complete.later')}</Link>
      </p>
    </section>
  );
}

/** The avatar through the media screen's own card (the Attention rules first); the walk follows its state. */
function AvatarStep({ id, self }: { id: number; self: boolean }) {
  const { t } = useTranslation('edit');
  const media = useMediaState(id);
  const refresh = useRefreshProfile(id);
  const avatarId = media.data?.avatar?.id ?? null;
  useEffect(() => {
    if (avatarId !== null) void refresh();
    // Only a new avatar matters; refresh is a new function each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [avatarId]);
  return (
    <>
      <p className="muted small">{t('complete.avatarLead')}</p>
      {media.data ? (
        <AvatarCard id={id} self={self} state={media.data} />
      ) : (
        <p className="muted">{media.error ? t('failed') : t('loading')}</p>
      )}
    </>
  );
}

function Finished({ id, data }: { id: number; data: UpdateData }) {
  const { t } = useTranslation('edit');
  const city = data.city;
  return (
    <section className="edit-card completion completion--done" role="status" data-testid="completion-done">
      <h2 className="edit-card__title">{t('complete.finishedTitle')}</h2>
      <p>{data.listed && city ? t('complete.listedIn', { city: city.name }) : t('complete.notListed')}</p>
      <p className="actions">
        {data.listed && city && (
          <Link className="button button--primary" to={`/escorts/${city.country_slug}/${city.slug}`}>
            {t('complete.seeDirectory')}
          </Link>
        )}
        <Link className="button" to={`/profile/${id}`}>
          {t('viewProfile')}
        </Link>
        <Link className="button button--ghost" to={`/edit/${id}`}>
          {t('complete.continue')}
        </Link>
      </p>
    </section>
  );
}
