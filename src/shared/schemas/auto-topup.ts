// Auto-topup (DESIGN.md "Auto-topup"; /edit/auto-topup/{id}; spec section 7): timers of weekdays plus a
// local time (HH:MM) in the time zone of the profile's city. At each slot one standard top-up is paid from
// the balance, exactly once per slot. Amounts are minor units of `currency`.
import { z } from 'zod';
import { id } from '../api/fields';
import { messageText } from '../api/messages';

/** ISO weekdays: 1 = Monday ... 7 = Sunday. */
export const Weekday = z.number().int().min(1).max(7);
/** At most this many timers per profile. */
export const AUTO_TOPUP_MAX_TIMERS = 7;
export const ADMIN_AUTO_TOPUP_PAGE_SIZE = 25;

export const RUN_STATUSES = ['succeeded', 'failed', 'missed', 'skipped_budget'] as const;

/** POST /api/auto-topup/setTimer/{id}: creates a timer, or changes `timer_id`. */
export const SetTimerBody = z.strictObject({
  timer_id: id().optional(),
  /** At least one, each once. */
  weekdays: z
    .array(Weekday)
    .min(1)
    .max(7)
    .refine((days) => new Set(days).size === days.length, messageText('validation.weekdayOnce')),
  /** Local time in the profile city's time zone, 24-hour HH:MM. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, messageText('validation.timeRange')),
  /** Optional cap on what this timer spends per week (Monday to Sunday, local); null = none. */
  weekly_budget: z.number().int().positive().max(1_000_000_000).nullish(),
  enabled: z.boolean().optional(),
});
export type SetTimerBody = z.infer<typeof SetTimerBody>;

/** POST /api/auto-topup/deleteTimer/{id}. */
export const DeleteTimerBody = z.strictObject({ timer_id: id() });
export type DeleteTimerBody = z.infer<typeof DeleteTimerBody>;

export const Timer = z.object({
  id: z.number(),
  weekdays: z.array(z.number()),
  time: z.string(),
  weekly_budget: z.number().nullable(),
  enabled: z.boolean(),
  /** Next slot of this timer (ISO instant), null when disabled. */
  next_run: z.string().nullable(),
});
export type Timer = z.infer<typeof Timer>;

export const Run = z.object({
  id: z.number(),
  timer_id: z.number(),
  /** The slot (ISO instant) this run stands for. */
  slot_at: z.string(),
  status: z.enum(RUN_STATUSES),
  amount: z.number(),
  /** Why a run failed or was skipped: `insufficient_balance`, `budget`, `not_listed`, `late`. */
  reason: z.string().nullable(),
  created_at: z.string(),
});
export type Run = z.infer<typeof Run>;

/** GET /api/auto-topup/getData/{id}. */
export const AutoTopupData = z.object({
  user_id: z.number(),
  /** IANA zone of the profile's city; null when the profile has no city yet (timers cannot be set). */
  timezone: z.string().nullable(),
  city: z.string().nullable(),
  /** Price of one standard top-up. */
  price: z.number(),
  currency: z.string(),
  balance: z.number(),
  timers: z.array(Timer),
  /** Newest first, the last 20. */
  runs: z.array(Run),
});
export type AutoTopupData = z.infer<typeof AutoTopupData>;
export const AutoTopupDataResponse = z.object({ data: AutoTopupData });

/**
 * GET /api/auto-topup/getCart/{id}: the coming 7 days of slots against the balance, so the screen can say
 * "your balance lasts until Thursday" (`funded_until`) and what a week costs.
 */
export const AutoTopupForecast = z.object({
  currency: z.string(),
  balance: z.number(),
  price: z.number(),
  /** Cost of the slots of the next 7 days (budget caps applied). */
  weekly_cost: z.number(),
  slots: z.array(
    z.object({
      timer_id: z.number(),
      at: z.string(),
      /** Local date and time in the profile's zone, "YYYY-MM-DD HH:MM". */
      local: z.string(),
      /** 1..7, Monday = 1, local. */
      weekday: z.number(),
      cost: z.number(),
      /** Over the timer's weekly budget: it will be skipped. */
      over_budget: z.boolean(),
      /** The balance, as it stands now, still pays for this slot. */
      funded: z.boolean(),
      balance_after: z.number(),
    }),
  ),
  /** Last funded slot (ISO instant) when the balance runs out within the week; null when it lasts. */
  funded_until: z.string().nullable(),
  /** The balance covers every slot of the week. */
  lasts_the_week: z.boolean(),
});
export type AutoTopupForecast = z.infer<typeof AutoTopupForecast>;
export const AutoTopupForecastResponse = z.object({ data: AutoTopupForecast });

/** GET /api/admin/getAutoTopup?page: every timer with its last and next runs and recent failures. */
export const AdminTimer = Timer.extend({
  user_id: z.number(),
  screen_name: z.string().nullable(),
  timezone: z.string().nullable(),
  last_run: Run.nullable(),
  /** Failed or missed runs in the last 30 days. */
  failures: z.number(),
});
export type AdminTimer = z.infer<typeof AdminTimer>;
export const AdminAutoTopupPage = z.object({
  data: z.array(AdminTimer),
  page: z.number(),
  has_more: z.boolean(),
  total: z.number(),
});
export type AdminAutoTopupPage = z.infer<typeof AdminAutoTopupPage>;
