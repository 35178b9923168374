// /edit/location/{id}: home city (searchable picker over the imported cities, with its country), area
// and landmark. /edit/directory/listing/{id}: where the ad is listed, the home city and the additional
// locations with their tour dates and days left; buying or renewing one starts here (add-location.tsx,
// `?add=1` opens it: the Shop's "Choose a city") and is paid in the cart.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { TourDatesBody, type ListingView } from '#shared/schemas/profile-edit.ts';
import { countryName, formatDate } from '#shared/views/format.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { AddLocationForm } from './add-location';
import { useListings, useSetTourDates, useUpdateData } from './api';
import { EditFrame, LoadState, useEditTarget } from './edit-page';
import { LocationForm } from './section-forms';
import './edit.css';

export function LocationPage() {
  const { t, i18n } = useTranslation('edit');
  const { id, self } = useEditTarget();
  const query = useUpdateData(id);
  return (
    <EditFrame id={id} self={self}>
      <section className="edit-card" aria-labelledby="location-title" data-testid="location-page">
        <Link className="small" to={`/edit/${id}`}>
          ‹ {t('menu.back')}
        </Link>
        <h2 id="location-title" className="edit-card__title">
          {t('location.title')}
        </h2>
        <p className="muted small">{t('lead.location')}</p>
        {query.data ? (
          <>
            {query.data.city && (
              <p className="small">
                {t('city.country', {
                  country: countryName(query.data.city.country_code, query.data.city.country_name, i18n.language),
                })}
              </p>
            )}
            <LocationForm id={id} self={self} data={query.data} />
          </>
        ) : (
          <LoadState error={query.error} retry={() => void query.refetch()} />
        )}
        <p className="small">
          <Link to={`/edit/directory/listing/${id}`}>{t('location.listingsLink')}</Link>
        </p>
      </section>
    </EditFrame>
  );
}

/** Days left at which a location is "running out": its renewal is offered first. */
const RUNNING_OUT_DAYS = 7;

/** Its paid days end soon (a tour's listing that ends with the tour is not running out: it is over). */
const runningOut = (l: ListingView) =>
  l.kind === 'additional' &&
  l.days_left !== null &&
  l.days_left <= RUNNING_OUT_DAYS &&
  !!l.paid_until &&
  !!l.expires_at &&
  new Date(l.expires_at).getTime() >= new Date(l.paid_until).getTime();

export function ListingsPage() {
  const { t } = useTranslation('edit');
  const { id, self } = useEditTarget();
  const query = useListings(id);
  const [params, setParams] = useSearchParams();
  // Only the advertiser buys for herself (the cart is the signed-in account's); an admin sees the list.
  const [adding, setAdding] = useState<'new' | ListingView | null>(() =>
    self && params.get('add') === '1' ? 'new' : null,
  );
  const close = () => {
    setAdding(null);
    setParams(
      (p) => {
        p.delete('add');
        return p;
      },
      { replace: true },
    );
  };
  return (
    <EditFrame id={id} self={self}>
      <section className="edit-card" aria-labelledby="listings-title" data-testid="listings-page">
        <Link className="small" to={`/edit/${id}`}>
          ‹ {t('menu.back')}
        </Link>
        <h2 id="listings-title" className="edit-card__title">
          {t('listings.title')}
        </h2>
        <p className="muted small">{t('listings.lead')}</p>
        {!query.data ? (
          <LoadState error={query.error} retry={() => void query.refetch()} />
        ) : (
          <>
            {!query.data.listed && <p className="edit__note">{t('listings.notListed')}</p>}
            <ul className="listings">
              {query.data.listings.map((l) => (
                <ListingItem key={l.id} id={id} listing={l} onRenew={self ? () => setAdding(l) : undefined} />
              ))}
            </ul>
            {adding ? (
              <AddLocationForm
                key={adding === 'new' ? 'new' : adding.id}
                renew={adding === 'new' ? undefined : adding}
                onCancel={close}
              />
            ) : (
              <p className="actions">
                <Link className="button" to={`/edit/location/${id}`}>
                  {t('listings.changeHome')}
                </Link>
                {self && query.data.listed && (
                  <button
                    type="button"
                    className="button button--primary"
                    data-testid="add-location-open"
                    onClick={() => setAdding('new')}
                  >
                    {t('listings.buy')}
                  </button>
                )}
              </p>
            )}
          </>
        )}
      </section>
    </EditFrame>
  );
}

function ListingItem({ id, listing, onRenew }: { id: number; listing: ListingView; onRenew?: () => void }) {
  const { t, i18n } = useTranslation('edit');
  const [editing, setEditing] = useState(false);
  return (
    <li className="listing" data-testid={`listing-${listing.kind}`}>
      <div className="listing__head">
        <strong>
          <Link to={`/escorts/${listing.city.country_slug}/${listing.city.slug}`}>{listing.city.name}</Link>
        </strong>
        <span className="muted">
          {' · '}
          {countryName(listing.city.country_code, listing.city.country_name, i18n.language)}
        </span>
      </div>
      <p className="small">
        {listing.kind === 'home' ? t('listings.home') : t('listings.additional')}
        {listing.position !== null && <> · {t('listings.position', { position: listing.position })}</>}
        {listing.days_left !== null && (
          <>
            {' · '}
            <span data-testid="days-left">{t('listings.daysLeft', { count: listing.days_left })}</span>
          </>
        )}
        {runningOut(listing) && (
          <>
            {' · '}
            <strong className="listing__running-out">{t('listings.runningOut')}</strong>
          </>
        )}
        {/* The city's last day (the server's): an end at midnight in Chicago is not "the next day" here. */}
        {listing.last_day && (
          <>
            {' · '}
            <span data-testid="last-day">
              {t('listings.endsOn', { date: formatDate(listing.last_day, i18n.language) })}
            </span>
          </>
        )}
      </p>
      {listing.kind === 'additional' && (
        <>
          <p className="small">
            {t('listings.tour')}:{' '}
            {listing.tour_from || listing.tour_until
              ? [listing.tour_from, listing.tour_until].map((d) => (d ? formatDate(d, i18n.language) : '…')).join(' – ')
              : t('listings.noTour')}{' '}
            {!editing && (
              <button type="button" className="link-button" onClick={() => setEditing(true)}>
                {t('listings.editTour')}
              </button>
            )}
          </p>
          {editing && <TourForm id={id} listing={listing} onDone={() => setEditing(false)} />}
          {onRenew && (
            <p className="small">
              <button type="button" className="link-button" data-testid="listing-renew" onClick={onRenew}>
                {t('listings.renew')}
              </button>
            </p>
          )}
        </>
      )}
    </li>
  );
}

function TourForm({ id, listing, onDone }: { id: number; listing: ListingView; onDone: () => void }) {
  const { t } = useTranslation('edit');
  const save = useSetTourDates(id);
  const form = useSchemaForm(TourDatesBody, {
    defaultValues: { listing_id: listing.id, from: listing.tour_from, until: listing.tour_until },
    labels: { from: t('fields.from'), until: t('fields.until') },
  });
  const orNull = { setValueAs: (v: unknown) => (v === '' || v === undefined ? null : v) };
  return (
    <Form
      form={form}
      className="form tour-form"
      onSubmit={async (body) => {
        await save.mutateAsync(body);
        onDone();
      }}
    >
      <p className="small muted">{t('listings.tourHint')}</p>
      <div className="tour-form__dates">
        <TextField form={form} name="from" type="date" registerOptions={orNull} />
        <TextField form={form} name="until" type="date" registerOptions={orNull} />
      </div>
      <SubmitButton form={form}>{t('listings.saveTour')}</SubmitButton>
    </Form>
  );
}
