// A new auto-topup timer: weekdays, a local time in the profile city's zone, an optional weekly budget.
// The form's output is the shared SetTimerBody; what people type (weekday boxes, a budget in major
// units) is turned into it here, and the time is checked by the shared rule.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormState } from 'react-hook-form';
import { z } from 'zod';
import { AUTO_TOPUP_MAX_TIMERS, SetTimerBody } from '#shared/schemas/auto-topup.ts';
import { Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { useSetTimer, type AutoTopupData } from '../auto-topup-api';
import { parseMajorInput } from '#client/lib/money-format.ts';
import { ISO_WEEKDAYS, weekdayName } from '../weekdays';

export function TimerForm({ data, userId }: { data: AutoTopupData; userId: number }) {
  const { t, i18n } = useTranslation('money');
  const setTimer = useSetTimer(userId);
  const schema = useMemo(
    () =>
      z
        .object({
          weekdays: z.array(z.string()).min(1, t('autoTopup.errors.weekdays')),
          // The shared rule, with a message in the reader's language.
          time: z.string().refine((v) => SetTimerBody.shape.time.safeParse(v).success, t('autoTopup.errors.time')),
          budget: z
            .string()
            .refine(
              (v) => v.trim() === '' || (parseMajorInput(v, data.currency) ?? 0) > 0,
              t('autoTopup.errors.budget'),
            ),
        })
        .transform((v): SetTimerBody => ({
          weekdays: v.weekdays.map(Number).sort((a, b) => a - b),
          time: v.time,
          weekly_budget: v.budget.trim() ? parseMajorInput(v.budget, data.currency) : null,
        })),
    [t, data.currency],
  );
  const form = useSchemaForm(schema, {
    defaultValues: { weekdays: [], time: '09:00', budget: '' },
    labels: {
      weekdays: t('autoTopup.days'),
      time: t('autoTopup.time', { city: data.city }),
      budget: t('autoTopup.budgetLabel', { currency: data.currency }),
    },
  });
  const { errors } = useFormState({ control: form.control, name: 'weekdays' });

  if (data.timers.length >= AUTO_TOPUP_MAX_TIMERS)
    return (
      <div className="money-card">
        <h2 className="money-card__title">{t('autoTopup.add')}</h2>
        <p className="muted">{t('autoTopup.full', { max: AUTO_TOPUP_MAX_TIMERS })}</p>
      </div>
    );

  return (
    <Form
      form={form}
      className="money-card form"
      onSubmit={(body) => setTimer.mutateAsync(body).then(() => form.reset())}
      data-testid="timer-form"
    >
      <h2 className="money-card__title">{t('autoTopup.add')}</h2>
      <fieldset className={`field money-days${errors.weekdays ? ' field--invalid' : ''}`}>
        <legend className="field__label">{t('autoTopup.days')}</legend>
        <div className="money-days__list">
          {ISO_WEEKDAYS.map((day) => (
            <label key={day} className="money-day">
              <input type="checkbox" value={String(day)} {...form.register('weekdays')} />
              <span>{weekdayName(day, i18n.language, 'short')}</span>
            </label>
          ))}
        </div>
        {errors.weekdays?.message && <p className="field__error">{errors.weekdays.message}</p>}
      </fieldset>
      <div className="money-timer-fields">
        <TextField form={form} name="time" type="time" />
        <TextField form={form} name="budget" inputMode="decimal" autoComplete="off" hint={t('autoTopup.budgetHint')} />
      </div>
      <SubmitButton form={form}>{t('autoTopup.save')}</SubmitButton>
    </Form>
  );
}
