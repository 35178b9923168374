// Filters of a directory list (issue 27 item 1, docs/decisions/0324): held in the address bar's query
// string (shareable, server-rendered, restored on back navigation), a bar on wide screens and a sheet on
// phones, the filters in force as chips a tap removes, and an empty state that offers to widen them.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { NARROW_BREAKPOINT, SERVICES } from '#shared/constants.ts';
import {
  FILTER_FLAGS,
  FILTER_QUERY_KEYS,
  filterCount,
  fromQuery,
  normalizeFilters,
  toQuery,
  type FilterFlag,
} from '#shared/rules/list-filters.ts';
import { FILTER_AGE, PROFILE_CURRENCIES, SPOKEN_LANGUAGES } from '#shared/rules/profile-lists.ts';
import { languageName } from '#shared/views/format.ts';
import type { ListFilters } from './api';

type Currency = (typeof PROFILE_CURRENCIES)[number];
type Service = (typeof SERVICES)[number];
type Spoken = (typeof SPOKEN_LANGUAGES)[number];

/** The filters of the page's address, and a way to change them (a new history entry: back undoes it). */
export function useListFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => fromQuery(params), [params]);
  const apply = useCallback(
    (next: ListFilters) =>
      setParams(
        (prev) => {
          const q = new URLSearchParams(prev);
          for (const k of FILTER_QUERY_KEYS) q.delete(k);
          for (const [k, v] of toQuery(normalizeFilters(next))) q.set(k, v);
          return q;
        },
        { preventScrollReset: true },
      ),
    [setParams],
  );
  return { filters, apply };
}

const narrowQuery = `(max-width: ${NARROW_BREAKPOINT}px)`;
function useNarrow() {
  const [narrow, setNarrow] = useState(
    () =>
      typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia(narrowQuery).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(narrowQuery);
    const on = () => setNarrow(media.matches);
    media.addEventListener('change', on);
    return () => media.removeEventListener('change', on);
  }, []);
  return narrow;
}

/** One thing the filter narrows by, as a chip: its label and the filter without it. */
function useChips(filters: ListFilters) {
  const { t, i18n } = useTranslation('directory');
  const n = normalizeFilters(filters);
  const chips: Array<{ key: string; label: string; without: ListFilters }> = [];
  const range = (a?: number, b?: number) =>
    a !== undefined && b !== undefined ? `${a}–${b}` : a !== undefined ? `${a}+` : `≤ ${b}`;
  if (n.age_min !== undefined || n.age_max !== undefined)
    chips.push({
      key: 'age',
      label: t('filters.chipAge', { range: range(n.age_min, n.age_max) }),
      without: { ...n, age_min: undefined, age_max: undefined },
    });
  if (n.price_min !== undefined || n.price_max !== undefined)
    chips.push({
      key: 'price',
      label: t('filters.chipPrice', { range: range(n.price_min, n.price_max), currency: n.currency }),
      without: { ...n, price_min: undefined, price_max: undefined, currency: undefined },
    });
  for (const s of n.services ?? [])
    chips.push({
      key: `service-${s}`,
      label: t(`services.${s}`),
      without: { ...n, services: n.services?.filter((x) => x !== s) },
    });
  for (const l of n.languages ?? [])
    chips.push({
      key: `speaks-${l}`,
      label: t('filters.chipSpeaks', { language: languageName(l, i18n.language) }),
      without: { ...n, languages: n.languages?.filter((x) => x !== l) },
    });
  for (const k of FILTER_FLAGS)
    if (n[k]) chips.push({ key: k, label: t(`filters.${k}`), without: { ...n, [k]: undefined } });
  return chips;
}

/** The filters in force, each a button that removes it, and one that removes them all. */
function FilterChips({ filters, apply }: { filters: ListFilters; apply: (f: ListFilters) => void }) {
  const { t } = useTranslation('directory');
  const chips = useChips(filters);
  if (!chips.length) return null;
  return (
    <ul className="filter-chips" data-testid="filter-chips" aria-label={t('filters.active')}>
      {chips.map((c) => (
        <li key={c.key}>
          <button
            type="button"
            className="filter-chip"
            data-testid={`filter-chip-${c.key}`}
            aria-label={t('filters.remove', { filter: c.label })}
            onClick={() => apply(c.without)}
          >
            {c.label} <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="filter-chip filter-chip--clear" onClick={() => apply({})}>
          {t('filters.clear')}
        </button>
      </li>
    </ul>
  );
}

const numberOrUndefined = (v: FormDataEntryValue | null) => {
  const s = String(v ?? '').trim();
  return /^\d+$/.test(s) ? Number(s) : undefined;
};

/** The form itself, in the bar or the sheet: applied on submit. */
function FilterForm({
  filters,
  currency,
  onApply,
  idPrefix,
}: {
  filters: ListFilters;
  currency: string;
  onApply: (f: ListFilters) => void;
  idPrefix: string;
}) {
  const { t, i18n } = useTranslation('directory');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const clamp = (n: number | undefined, min: number, max: number) =>
      n === undefined ? undefined : Math.min(max, Math.max(min, n));
    let ageMin = clamp(numberOrUndefined(data.get('age_min')), FILTER_AGE.min, FILTER_AGE.max);
    let ageMax = clamp(numberOrUndefined(data.get('age_max')), FILTER_AGE.min, FILTER_AGE.max);
    if (ageMin !== undefined && ageMax !== undefined && ageMin > ageMax) [ageMin, ageMax] = [ageMax, ageMin];
    let priceMin = numberOrUndefined(data.get('price_min'));
    let priceMax = numberOrUndefined(data.get('price_max'));
    if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax)
      [priceMin, priceMax] = [priceMax, priceMin];
    const next: ListFilters = {
      age_min: ageMin,
      age_max: ageMax,
      price_min: priceMin,
      price_max: priceMax,
      currency: String(data.get('currency') || currency) as Currency,
      services: data.getAll('services').map(String) as Service[],
      languages: data.getAll('languages').map(String) as Spoken[],
    };
    for (const k of FILTER_FLAGS) if (data.get(k)) next[k] = true;
    onApply(normalizeFilters(next));
  };
  const id = (name: string) => `${idPrefix}-${name}`;
  const currencies = PROFILE_CURRENCIES.includes(currency as Currency)
    ? PROFILE_CURRENCIES
    : [currency, ...PROFILE_CURRENCIES];
  return (
    <form className="filter-form" onSubmit={submit} data-testid="filter-form" noValidate>
      <fieldset className="filter-form__group">
        <legend>{t('filters.age')}</legend>
        <div className="filter-form__range">
          <label htmlFor={id('age-min')} className="visually-hidden">
            {t('filters.ageFrom')}
          </label>
          <input
            id={id('age-min')}
            name="age_min"
            type="number"
            inputMode="numeric"
            min={FILTER_AGE.min}
            max={FILTER_AGE.max}
            placeholder={t('filters.from')}
            defaultValue={filters.age_min ?? ''}
            data-testid="filter-age-min"
          />
          <span aria-hidden="true">–</span>
          <label htmlFor={id('age-max')} className="visually-hidden">
            {t('filters.ageTo')}
          </label>
          <input
            id={id('age-max')}
            name="age_max"
            type="number"
            inputMode="numeric"
            min={FILTER_AGE.min}
            max={FILTER_AGE.max}
            placeholder={t('filters.to')}
            defaultValue={filters.age_max ?? ''}
            data-testid="filter-age-max"
          />
        </div>
        <p className="filter-form__hint">{t('filters.ageHint')}</p>
      </fieldset>
      <fieldset className="filter-form__group">
        <legend>{t('filters.price')}</legend>
        <div className="filter-form__range">
          <label htmlFor={id('price-min')} className="visually-hidden">
            {t('filters.priceFrom')}
          </label>
          <input
            id={id('price-min')}
            name="price_min"
            type="number"
            inputMode="numeric"
            min={0}
            placeholder={t('filters.from')}
            defaultValue={filters.price_min ?? ''}
            data-testid="filter-price-min"
          />
          <span aria-hidden="true">–</span>
          <label htmlFor={id('price-max')} className="visually-hidden">
            {t('filters.priceTo')}
          </label>
          <input
            id={id('price-max')}
            name="price_max"
            type="number"
            inputMode="numeric"
            min={0}
            placeholder={t('filters.to')}
            defaultValue={filters.price_max ?? ''}
            data-testid="filter-price-max"
          />
          <label htmlFor={id('currency')} className="visually-hidden">
            {t('filters.currency')}
          </label>
          <select
            id={id('currency')}
            name="currency"
            defaultValue={filters.currency ?? currency}
            data-testid="filter-currency"
          >
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <p className="filter-form__hint">{t('filters.priceHint')}</p>
      </fieldset>
      <fieldset className="filter-form__group filter-form__flags">
        <legend>{t('filters.show')}</legend>
        {FILTER_FLAGS.map((k: FilterFlag) => (
          <label key={k} className="filter-form__check">
            <input type="checkbox" name={k} defaultChecked={!!filters[k]} data-testid={`filter-${k}`} />
            {t(`filters.${k}`)}
          </label>
        ))}
      </fieldset>
      <details className="filter-form__group filter-form__list" open={!!filters.services?.length}>
        <summary>
          {t('filters.services')}
          {filters.services?.length ? ` (${filters.services.length})` : ''}
        </summary>
        <div className="filter-form__options">
          {SERVICES.map((s) => (
            <label key={s} className="filter-form__check">
              <input
                type="checkbox"
                name="services"
                value={s}
                defaultChecked={filters.services?.includes(s)}
                data-testid={`filter-service-${s}`}
              />
              {t(`services.${s}`)}
            </label>
          ))}
        </div>
      </details>
      <details className="filter-form__group filter-form__list" open={!!filters.languages?.length}>
        <summary>
          {t('filters.languages')}
          {filters.languages?.length ? ` (${filters.languages.length})` : ''}
        </summary>
        <div className="filter-form__options">
          {SPOKEN_LANGUAGES.map((l) => (
            <label key={l} className="filter-form__check">
              <input
                type="checkbox"
                name="languages"
                value={l}
                defaultChecked={filters.languages?.includes(l)}
                data-testid={`filter-language-${l}`}
              />
              {languageName(l, i18n.language)}
            </label>
          ))}
        </div>
      </details>
      <div className="filter-form__actions">
        <button type="submit" className="button button--primary" data-testid="filter-apply">
          {t('filters.apply')}
        </button>
        <button type="button" className="button" onClick={() => onApply({})} data-testid="filter-reset">
          {t('filters.clear')}
        </button>
      </div>
    </form>
  );
}

/**
 * The filters above a list: on phones a button that opens them in a sheet (a modal <dialog>: Escape
 * closes it), on wider screens a bar that opens in place; the filters in force as chips either way.
 * `currency`: the list's main currency, offered first for the price (docs/decisions/0324).
 */
export function ListFilterControls({
  filters,
  apply,
  currency,
  total,
  more = false,
}: {
  filters: ListFilters;
  apply: (f: ListFilters) => void;
  currency: string;
  total?: number;
  /** The total is a floor: "more than" it (decision 0735). */
  more?: boolean;
}) {
  const { t } = useTranslation('directory');
  const narrow = useNarrow();
  const [open, setOpen] = useState(false);
  const sheet = useRef<HTMLDialogElement>(null);
  const count = filterCount(filters);
  // The form's fields start from the address: a new filter (back, a chip) is a new form.
  const formKey = toQuery(filters).toString();

  useEffect(() => {
    const dialog = sheet.current;
    if (!dialog) return;
    if (open && narrow && !dialog.open) dialog.showModal();
    if ((!open || !narrow) && dialog.open) dialog.close();
  }, [open, narrow]);

  const onApply = (f: ListFilters) => {
    setOpen(false);
    apply(f);
  };

  const toggle = (
    <button
      type="button"
      className={`button filter-toggle${count ? ' filter-toggle--on' : ''}`}
      aria-expanded={open}
      onClick={() => setOpen((v) => !v)}
      data-testid="filter-toggle"
    >
      {t('filters.button')}
      {count > 0 && (
        <span className="filter-toggle__count" aria-label={t('filters.count', { count })}>
          {count}
        </span>
      )}
    </button>
  );

  return (
    <section className={`filters${narrow ? ' filters--sheet' : ' filters--bar'}`} aria-label={t('filters.heading')}>
      <div className="filters__row">
        {toggle}
        {total !== undefined && count > 0 && (
          <span className="filters__total" data-testid="filter-total">
            {more ? t('filters.matchingMore', { n: total }) : t('filters.matching', { count: total })}
          </span>
        )}
      </div>
      <FilterChips filters={filters} apply={apply} />
      {narrow ? (
        <dialog
          ref={sheet}
          className="filter-sheet"
          aria-label={t('filters.heading')}
          onClose={() => setOpen(false)}
          data-testid="filter-sheet"
        >
          <div className="filter-sheet__head">
            <h2>{t('filters.heading')}</h2>
            <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
              {t('filters.close')}
            </button>
          </div>
          {open && (
            <FilterForm key={formKey} filters={filters} currency={currency} onApply={onApply} idPrefix="sheet" />
          )}
        </dialog>
      ) : (
        open && (
          <div className="filter-bar" data-testid="filter-bar">
            <FilterForm key={formKey} filters={filters} currency={currency} onApply={onApply} idPrefix="bar" />
          </div>
        )
      )}
    </section>
  );
}

/** No profile matches: say so, and offer to widen the filter (each part, or all of it). */
export function FilterEmpty({ filters, apply }: { filters: ListFilters; apply: (f: ListFilters) => void }) {
  const { t } = useTranslation('directory');
  const chips = useChips(filters);
  return (
    <div className="filter-empty" data-testid="filter-empty">
      <p className="empty">{t('filters.empty')}</p>
      {chips.length > 1 && (
        <>
          <p className="muted">{t('filters.widen')}</p>
          <ul className="filter-chips">
            {chips.map((c) => (
              <li key={c.key}>
                <button type="button" className="filter-chip" onClick={() => apply(c.without)}>
                  {t('filters.without', { filter: c.label })}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <button
        type="button"
        className="button button--primary"
        onClick={() => apply({})}
        data-testid="filter-empty-clear"
      >
        {t('filters.showAll')}
      </button>
    </div>
  );
}
