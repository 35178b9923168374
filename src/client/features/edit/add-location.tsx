// Buying an additional location or a tour (issue 23 item 1; docs/decisions/0403): the city (the Location
// section's picker), optional tour dates, the price and the 30 days, then the cart, which pays. A renewal
// is the same purchase for a city the profile is listed in already: 30 more paid days from their end.
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LocationSection, TOUR_ORDER_MESSAGE, TourDatesBody, type ListingView } from '#shared/schemas/profile-edit.ts';
import { formatDate } from '#shared/views/format.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { formatMinor } from '#client/lib/money-format.ts';
import { useAddToCart, useProducts } from '#client/features/money/index.ts';
import { CityPicker } from './location-fields';

const DAY_MS = 86_400_000;

/** The form's values: a city and the tour dates of TourDatesBody (with its order rule). */
const AddLocationValues = z
  .strictObject({
    city_id: LocationSection.shape.city_id,
    from: TourDatesBody.shape.from,
    until: TourDatesBody.shape.until,
  })
  .refine((v) => !v.from || !v.until || v.until >= v.from, {
    message: TOUR_ORDER_MESSAGE,
    path: ['until'],
    params: { i18n: 'edit:errors.tourOrder' },
  });

const orNull = { setValueAs: (v: unknown) => (v === '' || v === undefined ? null : v) };
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function AddLocationForm({
  renew,
  onCancel,
}: {
  /**
   * A running location to renew: its city is fixed, 30 more paid days from its paid end. Its old dates are
   * not offered again: kept, a tour's listing would still end with the tour, paid days or not.
   */
  renew?: ListingView;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('edit');
  const navigate = useNavigate();
  const products = useProducts();
  const add = useAddToCart();
  // Typed, so the form's values are inferred from the schema (a bare null would be taken as their type).
  const noDate = null as string | null;
  const form = useSchemaForm(AddLocationValues, {
    defaultValues: {
      city_id: renew?.city.id ?? null,
      from: noDate,
      until: noDate,
    },
    labels: { city_id: t('fields.city'), from: t('fields.from'), until: t('fields.until') },
  });
  const product = products.data?.data.find((p) => p.code === 'additional_location' && p.active);
  const days = product?.duration_days ?? 30;
  // The paid days start now, or at the running location's paid end (a renewal); the server decides in
  // the city's calendar, this only guides the date fields.
  const paidEnd = renew?.paid_until ? new Date(renew.paid_until).getTime() : 0;
  const start = Math.max(Date.now(), paidEnd);
  const lastDay = isoDay(start + days * DAY_MS - 1);
  const today = isoDay(Date.now());
  const until = form.watch('until');
  const ends = until && until < lastDay ? until : lastDay;

  return (
    <Form
      form={form}
      className="form add-location"
      data-testid="add-location"
      aria-labelledby="add-location-title"
      onSubmit={async ({ city_id, from, until }) => {
        await add.mutateAsync({ uid: 'additional_location', city_id, from, until });
        void navigate('/checkout/cart');
      }}
    >
      <h3 id="add-location-title" className="edit-card__subtitle">
        {renew ? t('listings.renewTitle', { city: renew.city.name }) : t('listings.addTitle')}
      </h3>
      <p className="small muted">
        {renew && paidEnd > Date.now()
          ? t('listings.renewLead', {
              count: days,
              city: renew.city.name,
              date: formatDate(isoDay(paidEnd - 1), i18n.language),
            })
          : t('listings.addLead', { count: days })}
      </p>
      {/* A renewal's city is fixed: the default value is what is sent. */}
      {!renew && <CityPicker form={form} city={null} />}
      <p className="small muted">{t('listings.tourHint')}</p>
      <div className="tour-form__dates">
        <TextField
          form={form}
          name="from"
          type="date"
          min={renew ? undefined : today}
          max={lastDay}
          registerOptions={orNull}
        />
        <TextField form={form} name="until" type="date" min={today} max={lastDay} registerOptions={orNull} />
      </div>
      {product && products.data && (
        <p className="add-location__price" data-testid="add-location-price">
          <strong>
            {t('listings.priceFor', {
              count: days,
              price: formatMinor(product.price, products.data.currency, i18n.language),
            })}
          </strong>
          <br />
          <span className="small">
            {until && until < lastDay
              ? t('listings.endsWithTour', { date: formatDate(ends, i18n.language) })
              : t('listings.endsPaid', { date: formatDate(ends, i18n.language) })}
          </span>
        </p>
      )}
      <p className="actions">
        <SubmitButton form={form}>{t('listings.addToCart')}</SubmitButton>
        <button type="button" className="button" onClick={onCancel}>
          {t('listings.cancel')}
        </button>
      </p>
    </Form>
  );
}
