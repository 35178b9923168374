// The Location section's fields: a searchable picker over the imported cities (the city brings its
// country), the area inside the city and a landmark. Used on /edit/{id}?edit=location and /edit/location/{id}.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get, useController, useFormState, type FieldValues } from 'react-hook-form';
import type { CityRef } from '#shared/schemas/profile-edit.ts';
import { countryName } from '#shared/views/format.ts';
import { FieldMessages, TextField, type SchemaForm } from '#client/components/form/index.ts';
import { useFindCities } from './api';

type LocationValues = { city_id: number | null; place?: string; landmark?: string };

/** What was typed, once the typing pauses (one request per pause, not per key). */
function useDebounced(value: string, ms: number) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function CityPicker<In extends FieldValues>({
  form,
  city,
}: {
  form: SchemaForm<In, unknown>;
  /** The city saved now (its name and country for the first render). */
  city: CityRef | null;
}) {
  const { t, i18n } = useTranslation('edit');
  const id = useId();
  const typed = form as unknown as SchemaForm<LocationValues, unknown>;
  const { field } = useController({ control: typed.control, name: 'city_id' });
  const { errors } = useFormState({ control: typed.control, name: 'city_id' });
  const error = (get(errors, 'city_id') as { message?: string } | undefined)?.message;
  const [chosen, setChosen] = useState<Pick<CityRef, 'id' | 'name' | 'country_code' | 'country_name'> | null>(city);
  const [open, setOpen] = useState(!city);
  const [text, setText] = useState('');
  const q = useDebounced(text, 250);
  const results = useFindCities(q);
  const errorId = error ? `${id}-error` : undefined;

  const pick = (c: CityRef) => {
    setChosen(c);
    field.onChange(c.id);
    setOpen(false);
    setText('');
  };

  return (
    <div className={`field city-picker${error ? ' field--invalid' : ''}`} data-testid="city-picker">
      <label className="field__label" htmlFor={`${id}-q`}>
        {typed.label('city_id')}
      </label>
      {chosen && (
        <p className="city-picker__chosen" data-testid="city-chosen">
          {t('city.chosen', {
            city: chosen.name,
            country: countryName(chosen.country_code, chosen.country_name, i18n.language),
          })}{' '}
          {!open && (
            <button type="button" className="link-button" onClick={() => setOpen(true)}>
              {t('city.change')}
            </button>
          )}
        </p>
      )}
      {open && (
        <>
          <input
            id={`${id}-q`}
            ref={field.ref}
            className="field__input"
            type="search"
            role="combobox"
            aria-expanded={!!results.data?.length}
            aria-controls={`${id}-list`}
            aria-autocomplete="list"
            aria-invalid={error ? true : undefined}
            aria-describedby={errorId}
            autoComplete="off"
            placeholder={t('city.placeholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={field.onBlur}
          />
          {q.trim().length >= 2 && results.data && (
            <ul id={`${id}-list`} className="city-picker__list" role="listbox" aria-label={t('city.results')}>
              {results.data.length === 0 && <li className="muted small">{t('city.none')}</li>}
              {results.data.map((c) => (
                <li key={c.id} role="option" aria-selected={field.value === c.id}>
                  <button type="button" className="city-picker__option" onClick={() => pick(c)}>
                    <strong>{c.name}</strong>{' '}
                    <span className="muted">{countryName(c.country_code, c.country_name, i18n.language)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <FieldMessages error={error} errorId={errorId} />
    </div>
  );
}

export function LocationFields<In extends FieldValues>({
  form,
  city,
}: {
  form: SchemaForm<In, unknown>;
  city: CityRef | null;
}) {
  const { t } = useTranslation('edit');
  const typed = form as unknown as SchemaForm<LocationValues, unknown>;
  return (
    <>
      <CityPicker form={form} city={city} />
      <TextField form={typed} name="place" maxLength={80} hint={t('hints.place')} />
      <TextField form={typed} name="landmark" maxLength={120} hint={t('hints.landmark')} />
    </>
  );
}
