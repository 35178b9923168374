// /edit/auto-topup/{id} (DESIGN.md "Auto-topup"): timers of weekdays and a local time in the profile
// city's zone (shown with the zone), an optional weekly budget, the coming week's cost against the
// balance ("your balance lasts until Thursday"), and the last runs with their failures.
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Run, Timer } from '#shared/schemas/auto-topup.ts';
import { confirm } from '#client/lib/dialogs.ts';
import { NoticesPanel } from '#client/features/notices/index.ts';
import {
  useAutoTopup,
  useAutoTopupForecast,
  useDeleteTimer,
  type AutoTopupData,
  type AutoTopupForecast,
} from '../auto-topup-api';
import { dateTimeIn, weekdayIn, weekdayName, zoneName } from '../weekdays';
import { Money, QueryState, useFormatMoney } from './money-parts';
import { TimerForm } from './timer-form';

export function AutoTopupPage() {
  const { t } = useTranslation('money');
  const userId = Number(useParams().id);
  const data = useAutoTopup(userId);
  const format = useFormatMoney(data.data?.currency);

  return (
    <section className="container container--narrow money" data-testid="auto-topup-page">
      <header className="money__head">
        <h1>{t('autoTopup.title')}</h1>
        {data.data && <p className="lead">{t('autoTopup.lead', { price: format(data.data.price) })}</p>}
      </header>
      <NoticesPanel userId={userId} />
      {!data.data ? <QueryState query={data} /> : <AutoTopupBody data={data.data} userId={userId} />}
    </section>
  );
}

function AutoTopupBody({ data, userId }: { data: AutoTopupData; userId: number }) {
  const { t, i18n } = useTranslation('money');
  const zone = data.timezone;
  if (!zone)
    return (
      <div className="money-card" role="note">
        <p>{t('autoTopup.noCity')}</p>
        <Link className="button button--primary" to={`/edit/location/${userId}`}>
          {t('autoTopup.setCity')}
        </Link>
      </div>
    );
  return (
    <>
      <p className="money-zone" data-testid="auto-topup-zone">
        {t('autoTopup.zone', { city: data.city, zone: zoneName(zone, i18n.language), id: zone })}
      </p>
      <Forecast userId={userId} zone={zone} hasTimers={data.timers.length > 0} />
      <div className="money-card">
        <h2 className="money-card__title">{t('autoTopup.timers')}</h2>
        {data.timers.length === 0 ? (
          <p className="empty">{t('autoTopup.noTimers')}</p>
        ) : (
          <ul className="money-timers" data-testid="timers">
            {data.timers.map((timer) => (
              <TimerLine key={timer.id} timer={timer} zone={zone} currency={data.currency} userId={userId} />
            ))}
          </ul>
        )}
      </div>
      <TimerForm data={data} userId={userId} />
      <Runs runs={data.runs} zone={zone} currency={data.currency} />
    </>
  );
}

function Forecast({ userId, zone, hasTimers }: { userId: number; zone: string; hasTimers: boolean }) {
  const { t, i18n } = useTranslation('money');
  const forecast = useAutoTopupForecast(userId);
  const f: AutoTopupForecast | undefined = forecast.data;
  const format = useFormatMoney(f?.currency);
  if (!f) return forecast.isPending ? <div className="money-card money-card--skeleton" /> : null;
  const runs = f.slots.filter((s) => !s.over_budget);
  return (
    <div className="money-card" data-testid="forecast">
      <h2 className="money-card__title">{t('autoTopup.week')}</h2>
      <p>
        {t('summary.balance')}: <Money amount={f.balance} currency={f.currency} />
      </p>
      {hasTimers && (
        <>
          <p>{t('autoTopup.weekCost', { count: runs.length, cost: format(f.weekly_cost) })}</p>
          <p
            className={f.lasts_the_week ? 'money-forecast money-forecast--ok' : 'money-forecast money-forecast--short'}
            data-testid="forecast-verdict"
          >
            {f.lasts_the_week
              ? t('autoTopup.lastsWeek')
              : f.funded_until
                ? t('autoTopup.lastsUntil', { day: weekdayIn(f.funded_until, zone, i18n.language) })
                : t('autoTopup.lastsNone')}
          </p>
          {!f.lasts_the_week && (
            <Link className="button" to={`/edit/load/${userId}`}>
              {t('links.load')}
            </Link>
          )}
          <ol className="money-slots">
            {f.slots.map((s) => (
              <li
                key={`${s.timer_id}-${s.at}`}
                className={`money-slot${s.funded ? '' : ' money-slot--unfunded'}`}
                data-testid="forecast-slot"
              >
                <span>{dateTimeIn(s.at, zone, i18n.language)}</span>
                <span className="small">
                  {s.over_budget
                    ? t('autoTopup.slot.overBudget')
                    : s.funded
                      ? t('autoTopup.slot.funded', { balance: format(s.balance_after) })
                      : t('autoTopup.slot.unfunded')}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

function TimerLine({
  timer,
  zone,
  currency,
  userId,
}: {
  timer: Timer;
  zone: string;
  currency: string;
  userId: number;
}) {
  const { t, i18n } = useTranslation('money');
  const remove = useDeleteTimer(userId);
  const days = timer.weekdays.map((d) => weekdayName(d, i18n.language, 'short')).join(', ');
  const onDelete = async () => {
    const ok = await confirm({
      title: t('autoTopup.deleteTitle'),
      message: t('autoTopup.deleteText', { days, time: timer.time }),
      confirm: t('autoTopup.delete'),
      cancel: t('autoTopup.keep'),
    });
    if (ok) remove.mutate({ timer_id: timer.id });
  };
  return (
    <li className="money-timer" data-testid="timer">
      <div>
        <strong>
          {days} · {timer.time}
        </strong>
        <div className="small muted">
          {timer.weekly_budget !== null ? (
            <>
              {t('autoTopup.budget')}: <Money amount={timer.weekly_budget} currency={currency} />
            </>
          ) : (
            t('autoTopup.noBudget')
          )}
          {' · '}
          {timer.enabled
            ? timer.next_run
              ? t('autoTopup.next', { at: dateTimeIn(timer.next_run, zone, i18n.language) })
              : null
            : t('autoTopup.paused')}
        </div>
      </div>
      <button
        type="button"
        className="button button--ghost money-timer__delete"
        disabled={remove.isPending}
        onClick={() => void onDelete()}
      >
        {t('autoTopup.delete')}
      </button>
    </li>
  );
}

function Runs({ runs, zone, currency }: { runs: Run[]; zone: string; currency: string }) {
  const { t, i18n } = useTranslation('money');
  return (
    <div className="money-card" data-testid="runs">
      <h2 className="money-card__title">{t('autoTopup.runs')}</h2>
      {runs.length === 0 ? (
        <p className="empty">{t('autoTopup.noRuns')}</p>
      ) : (
        <ul className="money-runs">
          {runs.map((run) => (
            <li
              key={run.id}
              className={`money-run money-run--${run.status}`}
              data-testid="run"
              data-status={run.status}
            >
              <span>{dateTimeIn(run.slot_at, zone, i18n.language)}</span>
              <span>
                <strong>{t(`autoTopup.status.${run.status}`)}</strong>
                {run.reason && run.status !== 'succeeded' && (
                  <span className="small muted">
                    {' '}
                    · {t(`autoTopup.reason.${run.reason}`, { defaultValue: run.reason })}
                  </span>
                )}
              </span>
              {run.status === 'succeeded' && <Money amount={run.amount} currency={currency} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
