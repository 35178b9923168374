// The sections of /edit/{id} (spec section 2's edit menu), each a form on the kit checked by the shared
// schema its call is checked with on the server (#shared/schemas/profile-edit.ts).
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, useWatch, type FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { ABOUT_ME_ADVISED_WORDS, GENDERS, RATE_KEYS, SERVICES, SEXUALITIES, WEEKDAYS } from '#shared/constants.ts';
import {
  AboutSection,
  AdStatusSection,
  AvailabilitySection,
  CommentsSection,
  DominatrixSection,
  GenderSection,
  HeadingSection,
  LanguageSection,
  LinksSection,
  LocationSection,
  PersonalitySection,
  PhoneSection,
  RatesSection,
  ScreenNameSection,
  ServicesSection,
  SexualitySection,
  type Attribute,
  type UpdateSection,
} from '#shared/schemas/profile-edit.ts';
import {
  LANGUAGES_MAX,
  LINK_KEYS,
  NUMBER_MESSENGERS,
  PERSONALITY_MAX,
  PHONE_MESSENGERS,
  PERSONALITY_TRAITS,
  PROFILE_CURRENCIES,
  SPOKEN_LANGUAGES,
  wordCount,
  type LinkGroup,
} from '#shared/rules/profile-fields.ts';
import { Field, Form, SubmitButton, TextField, useSchemaForm, type SchemaForm } from '#client/components/form/index.ts';
import { useSetAttribute, useUpdateSection, type UpdateData } from './api';
import { MultiChoiceField, SingleChoiceField } from './choice-fields';
import { LocationFields } from './location-fields';
import { SameAsPhoneButton, shownPhone } from './phone-fields';
import { checkPhone, formatPhone } from '#shared/rules/phone.ts';

export interface SectionProps {
  id: number;
  /** The signed-in account edits its own profile (else an admin edits someone's). */
  self: boolean;
  data: UpdateData;
  /** Inside the completion walk: the button says "Save and continue". */
  walk?: boolean;
  onSaved?: (data: UpdateData) => void;
}

/** The form's values as the schema takes them in; the profile's current values may be null there. */
const initial = <S extends z.ZodType>(_schema: S, values: unknown) => values as z.input<S> & FieldValues;

function Saved({ show }: { show: boolean }) {
  const { t } = useTranslation('edit');
  return (
    <p className="edit-saved small" role="status">
      {show ? t('saved') : ''}
    </p>
  );
}

/** Sends one section through POST /update; shows "Saved." and tells the page. */
function useSave(p: SectionProps, section: UpdateSection) {
  const save = useUpdateSection(p.id, p.self);
  const [saved, setSaved] = useState(false);
  const submit = async (values: object) => {
    setSaved(false);
    const data = await save.mutateAsync({ section, ...values } as Parameters<typeof save.mutateAsync>[0]);
    setSaved(true);
    p.onSaved?.(data);
  };
  return { submit, saved };
}

function SectionForm<In extends FieldValues, Out>({
  form,
  p,
  section,
  children,
  testId,
}: {
  form: SchemaForm<In, Out>;
  p: SectionProps;
  section: UpdateSection;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('edit');
  const { submit, saved } = useSave(p, section);
  return (
    <Form form={form} className="form" data-testid={testId} onSubmit={(values) => submit(values as object)}>
      {children}
      <SubmitButton form={form}>{p.walk ? t('saveContinue') : t('save')}</SubmitButton>
      <Saved show={saved} />
    </Form>
  );
}

// ---------------------------------------------------------------- text sections

export function ScreenNameForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(ScreenNameSection, {
    defaultValues: { screen_name: p.data.screen_name ?? '' },
    labels: { screen_name: t('fields.screen_name') },
  });
  return (
    <SectionForm form={form} p={p} section="screen_name" testId="form-screen_name">
      <TextField form={form} name="screen_name" autoComplete="nickname" maxLength={30} hint={t('hints.screenName')} />
    </SectionForm>
  );
}

export function HeadingForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(HeadingSection, {
    defaultValues: { heading: p.data.heading ?? '' },
    labels: { heading: t('fields.heading') },
  });
  return (
    <SectionForm form={form} p={p} section="heading" testId="form-heading">
      <TextField form={form} name="heading" maxLength={100} hint={t('hints.heading')} />
    </SectionForm>
  );
}

/** About Me with the live word count and the advice of spec section 5 (at least 300 words, advice only). */
export function AboutForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(AboutSection, {
    defaultValues: { about: p.data.about ?? '' },
    labels: { about: t('fields.about') },
  });
  const about = useWatch({ control: form.control, name: 'about' });
  const words = wordCount(about ?? '');
  const min = ABOUT_ME_ADVISED_WORDS;
  return (
    <SectionForm form={form} p={p} section="about" testId="form-about">
      <Field form={form} name="about">
        {(control) => <textarea className="field__input field__textarea" rows={10} {...control} />}
      </Field>
      <p className={`edit-words small${words >= min ? ' edit-words--ok' : ''}`} aria-live="polite">
        <strong data-testid="about-words">{t('about.words', { count: words })}</strong>
        {' · '}
        {words >= min ? t('about.enough') : t('about.advice', { min })}
      </p>
    </SectionForm>
  );
}

/**
 * Phone: what people type (spaces, dashes, brackets, 00 for +), kept as E.164 and shown grouped. A saved
 * number the rule refuses opens with its reason under the field.
 */
export function PhoneForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(PhoneSection, {
    defaultValues: { phone: shownPhone(p.data.phone) },
    labels: { phone: t('fields.phone') },
  });
  const saved = p.data.phone;
  useEffect(() => {
    if (saved && !checkPhone(saved).ok) void form.trigger('phone');
    // Once, on opening: the saved number's reason; typing re-checks it from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const typed = useWatch({ control: form.control, name: 'phone' });
  const checked = checkPhone(typed ?? '');
  const shown = checked.ok ? formatPhone(checked.e164) : null;
  return (
    <SectionForm form={form} p={p} section="phone" testId="form-phone">
      <TextField
        form={form}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+44 20 7946 0018"
        hint={shown ? t('hints.phoneShown', { phone: shown }) : t('hints.phone')}
      />
    </SectionForm>
  );
}

// ---------------------------------------------------------------- choices

export function GenderForm(p: SectionProps) {
  const { t } = useTranslation(['edit', 'directory']);
  const form = useSchemaForm(GenderSection, {
    defaultValues: initial(GenderSection, { gender: p.data.gender }),
    labels: { gender: t('fields.gender') },
  });
  return (
    <SectionForm form={form} p={p} section="gender" testId="form-gender">
      <SingleChoiceField
        form={form}
        name="gender"
        options={GENDERS.map((g) => ({ value: g, label: t(`directory:genders.${g}`) }))}
      />
    </SectionForm>
  );
}

export function SexualityForm(p: SectionProps) {
  const { t } = useTranslation(['edit', 'directory']);
  const form = useSchemaForm(SexualitySection, {
    defaultValues: initial(SexualitySection, { sexuality: p.data.sexuality }),
    labels: { sexuality: t('fields.sexuality') },
  });
  return (
    <SectionForm form={form} p={p} section="sexuality" testId="form-sexuality">
      <SingleChoiceField
        form={form}
        name="sexuality"
        options={[
          ...SEXUALITIES.map((s) => ({ value: s as string | null, label: t(`directory:sexualities.${s}`) })),
          { value: null, label: t('hints.noSexuality') },
        ]}
      />
    </SectionForm>
  );
}

export function ServicesForm(p: SectionProps) {
  const { t } = useTranslation(['edit', 'directory']);
  const form = useSchemaForm(ServicesSection, {
    defaultValues: initial(ServicesSection, { services: p.data.services }),
    labels: { services: t('fields.services') },
  });
  return (
    <SectionForm form={form} p={p} section="services" testId="form-services">
      <MultiChoiceField
        form={form}
        name="services"
        options={SERVICES.map((s) => ({ value: s, label: t(`directory:services.${s}`) }))}
      />
    </SectionForm>
  );
}

export function PersonalityForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(PersonalitySection, {
    defaultValues: initial(PersonalitySection, { personality: p.data.personality }),
    labels: { personality: t('fields.personality') },
  });
  return (
    <SectionForm form={form} p={p} section="personality" testId="form-personality">
      <MultiChoiceField
        form={form}
        name="personality"
        max={PERSONALITY_MAX}
        hint={t('hints.personalityMax', { max: PERSONALITY_MAX })}
        options={PERSONALITY_TRAITS.map((trait) => ({ value: trait, label: t(`personality.${trait}`) }))}
      />
    </SectionForm>
  );
}

function languageLabel(code: string, language: string) {
  try {
    return new Intl.DisplayNames([language], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function LanguageForm(p: SectionProps) {
  const { t, i18n } = useTranslation('edit');
  const form = useSchemaForm(LanguageSection, {
    defaultValues: initial(LanguageSection, { languages: p.data.languages }),
    labels: { languages: t('fields.languages') },
  });
  const options = SPOKEN_LANGUAGES.map((code) => ({ value: code, label: languageLabel(code, i18n.language) })).sort(
    (a, b) => a.label.localeCompare(b.label, i18n.language),
  );
  return (
    <SectionForm form={form} p={p} section="language" testId="form-language">
      <MultiChoiceField
        form={form}
        name="languages"
        max={LANGUAGES_MAX}
        hint={t('hints.languagesMax', { max: LANGUAGES_MAX })}
        options={options}
      />
    </SectionForm>
  );
}

// ---------------------------------------------------------------- location, rates, availability, links

export function LocationForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  const form = useSchemaForm(LocationSection, {
    defaultValues: initial(LocationSection, {
      city_id: p.data.city?.id ?? null,
      place: p.data.place ?? '',
      landmark: p.data.landmark ?? '',
    }),
    labels: { city_id: t('fields.city'), place: t('fields.place'), landmark: t('fields.landmark') },
  });
  return (
    <SectionForm form={form} p={p} section="location" testId="form-location">
      <LocationFields form={form} city={p.data.city} />
    </SectionForm>
  );
}

const numberOrNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

export function RatesForm(p: SectionProps) {
  const { t } = useTranslation(['edit', 'directory']);
  const rate = (kind: 'incall' | 'outcall', key: string) => p.data.rates[kind][key] ?? null;
  const labels: Record<string, string> = { currency: t('fields.currency') };
  for (const kind of ['incall', 'outcall'] as const)
    for (const key of RATE_KEYS[kind])
      labels[`${kind}.${key}`] = `${t(`rates.${kind}`)} · ${t(`directory:rates.${key}`)}`;
  const form = useSchemaForm(RatesSection, {
    defaultValues: initial(RatesSection, {
      currency: p.data.currency,
      incall: Object.fromEntries(RATE_KEYS.incall.map((k) => [k, rate('incall', k)])),
      outcall: Object.fromEntries(RATE_KEYS.outcall.map((k) => [k, rate('outcall', k)])),
    }),
    labels,
  });
  return (
    <SectionForm form={form} p={p} section="rates" testId="form-rates">
      <Field form={form} name="currency">
        {(control) => (
          <select className="field__input" {...control}>
            {PROFILE_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
      </Field>
      {(['incall', 'outcall'] as const).map((kind) => (
        <fieldset key={kind} className="edit-rates">
          <legend className="field__label">{t(`rates.${kind}`)}</legend>
          <div className="edit-rates__grid">
            {RATE_KEYS[kind].map((key) => (
              <TextField
                key={key}
                form={form}
                name={`${kind}.${key}` as 'incall.60min'}
                label={t(`directory:rates.${key}`)}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                placeholder={t('rates.placeholder')}
                registerOptions={{ setValueAs: numberOrNull }}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </SectionForm>
  );
}

type Slot = { from: string; until: string } | null;
const DEFAULT_SLOT = { from: '10:00', until: '22:00' };

function DayRow({ form, day }: { form: SchemaForm<FieldValues, unknown>; day: (typeof WEEKDAYS)[number] }) {
  const { t } = useTranslation(['edit', 'directory']);
  const { field, fieldState } = useController({ control: form.control, name: `availability.${day}` });
  const slot = field.value as Slot | undefined;
  const name = t(`directory:weekdays.${day}`);
  const error =
    (fieldState.error as { from?: { message?: string }; until?: { message?: string } } | undefined)?.from?.message ??
    (fieldState.error as { until?: { message?: string } } | undefined)?.until?.message;
  return (
    <div className={`edit-day${error ? ' field--invalid' : ''}`} data-day={day}>
      <label className="edit-day__name">
        <input
          type="checkbox"
          ref={field.ref}
          checked={!!slot}
          onChange={(e) => field.onChange(e.target.checked ? DEFAULT_SLOT : null)}
        />{' '}
        {name}
      </label>
      {slot ? (
        <span className="edit-day__hours" role="group" aria-label={t('availability.hours', { day: name })}>
          <input
            type="time"
            className="field__input"
            aria-label={`${name} ${t('fields.from')}`}
            value={slot.from}
            onChange={(e) => field.onChange({ ...slot, from: e.target.value })}
          />
          <span aria-hidden="true">–</span>
          <input
            type="time"
            className="field__input"
            aria-label={`${name} ${t('fields.until')}`}
            value={slot.until}
            onChange={(e) => field.onChange({ ...slot, until: e.target.value })}
          />
        </span>
      ) : (
        <span className="muted small">{t('directory:profile.unavailable')}</span>
      )}
      {error && <p className="field__error">{error}</p>}
    </div>
  );
}

export function AvailabilityForm(p: SectionProps) {
  const form = useSchemaForm(AvailabilitySection, {
    defaultValues: initial(AvailabilitySection, {
      availability: Object.fromEntries(WEEKDAYS.map((d) => [d, p.data.availability[d] ?? null])),
    }),
    labels: {},
  });
  return (
    <SectionForm form={form} p={p} section="availability" testId="form-availability">
      <div className="edit-days">
        {WEEKDAYS.map((day) => (
          <DayRow key={day} form={form as unknown as SchemaForm<FieldValues, unknown>} day={day} />
        ))}
      </div>
    </SectionForm>
  );
}

const isPhoneMessenger = (key: string) => (PHONE_MESSENGERS as readonly string[]).includes(key);

export function LinksForm(p: SectionProps) {
  const { t } = useTranslation(['edit', 'directory']);
  const groups = Object.keys(LINK_KEYS) as LinkGroup[];
  const labels: Record<string, string> = {};
  for (const g of groups)
    for (const k of LINK_KEYS[g]) labels[`links.${g}.${k}`] = t(`directory:profile.linkNames.${k}`);
  // A messenger's number is kept as E.164 and shown grouped, as Phone is.
  const shown = (g: LinkGroup, k: string) => {
    const value = p.data.links[g]?.[k] ?? '';
    return g === 'messenger' && isPhoneMessenger(k) && checkPhone(value).ok ? formatPhone(value) : value;
  };
  const form = useSchemaForm(LinksSection, {
    defaultValues: initial(LinksSection, {
      links: Object.fromEntries(groups.map((g) => [g, Object.fromEntries(LINK_KEYS[g].map((k) => [k, shown(g, k)]))])),
    }),
    labels,
  });
  useEffect(() => {
    // A saved messenger number the rule refuses opens with its reason, as Phone does.
    for (const k of PHONE_MESSENGERS)
      if (
        p.data.links.messenger?.[k] &&
        LinksSection.shape.links.shape.messenger.shape[k].safeParse(p.data.links.messenger[k]).error
      )
        void form.trigger(`links.messenger.${k}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <SectionForm form={form} p={p} section="links" testId="form-links">
      {groups.map((g) => (
        <fieldset key={g} className="edit-links">
          <legend className="field__label">{t(`links.${g}`)}</legend>
          {LINK_KEYS[g].map((k) => {
            const name = `links.${g}.${k}` as 'links.messenger.telegram';
            const number = g === 'messenger' && isPhoneMessenger(k);
            const numberOnly = (NUMBER_MESSENGERS as readonly string[]).includes(k);
            return (
              <div key={k} className="edit-links__item" data-testid={`link-${g}-${k}`}>
                <TextField
                  form={form}
                  name={name}
                  autoCapitalize="off"
                  autoComplete="off"
                  spellCheck={false}
                  type={numberOnly ? 'tel' : 'text'}
                  inputMode={numberOnly ? 'tel' : undefined}
                  hint={
                    number ? (numberOnly ? t('hints.messengerNumber') : t('hints.messengerNumberOrName')) : undefined
                  }
                />
                {number && (
                  <SameAsPhoneButton
                    phone={p.data.phone}
                    onCopy={(phone) => form.setValue(name, phone, { shouldDirty: true, shouldValidate: true })}
                  />
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
    </SectionForm>
  );
}

// ---------------------------------------------------------------- the three switches

function AttributeForm<S extends typeof AdStatusSection | typeof CommentsSection | typeof DominatrixSection>({
  p,
  attribute,
  schema,
  value,
  options,
}: {
  p: SectionProps;
  attribute: Attribute;
  schema: S;
  value: string | boolean;
  options: Array<{ value: string | boolean; label: string }>;
}) {
  const { t } = useTranslation('edit');
  const set = useSetAttribute(p.id);
  const [saved, setSaved] = useState(false);
  type Value = { value: string | boolean };
  const form = useSchemaForm(schema as unknown as z.ZodType<Value, Value>, {
    defaultValues: { value },
    labels: { value: t(`fields.${attribute}`) },
  });
  return (
    <Form
      form={form}
      className="form"
      data-testid={`form-${attribute}`}
      onSubmit={async (body) => {
        setSaved(false);
        await set.mutateAsync({ attribute, ...(body as { value: never }) });
        setSaved(true);
      }}
    >
      <SingleChoiceField form={form} name="value" options={options} />
      <SubmitButton form={form}>{t('save')}</SubmitButton>
      <Saved show={saved} />
    </Form>
  );
}

export function AdStatusForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  return (
    <AttributeForm
      p={p}
      attribute="ad_status"
      schema={AdStatusSection}
      value={p.data.ad_status}
      options={[
        { value: 'visible', label: t('switch.visible') },
        { value: 'hidden', label: t('switch.hidden') },
      ]}
    />
  );
}

const onOff = (t: (k: string) => string) => [
  { value: true, label: t('switch.on') },
  { value: false, label: t('switch.off') },
];

export function CommentsForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  return (
    <AttributeForm p={p} attribute="comments" schema={CommentsSection} value={p.data.comments} options={onOff(t)} />
  );
}

export function DominatrixForm(p: SectionProps) {
  const { t } = useTranslation('edit');
  return (
    <AttributeForm
      p={p}
      attribute="dominatrix"
      schema={DominatrixSection}
      value={p.data.dominatrix}
      options={onOff(t)}
    />
  );
}
