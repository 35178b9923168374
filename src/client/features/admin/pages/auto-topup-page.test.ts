// The admin's auto-topup review (issue 23, item 15): a timer's next and last runs are shown on the
// timer's own clock, the one zone of the row, named; never the admin's browser zone beside it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { createElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAutoTopupPage } from '#shared/schemas/auto-topup.ts';
import { renderWith, testI18n } from '#client/lib/test-i18n.ts';
import { adminKeys } from '../api';
import { AutoTopupPage } from './auto-topup-page';

let i18n: I18n;
const browserZone = process.env.TZ;
beforeAll(async () => {
  // The admin's browser is an hour off Berlin: its clock must not show through.
  process.env.TZ = 'Europe/London';
  i18n = await testI18n(['admin', 'common']);
});
afterAll(() => {
  process.env.TZ = browserZone;
});

const timer = (id: number, timezone: string | null, next: string, last: string | null) => ({
  id,
  weekdays: [1, 3],
  time: '19:30',
  weekly_budget: null,
  enabled: true,
  next_run: next,
  user_id: id,
  screen_name: `Timer ${id}`,
  timezone,
  last_run: last
    ? { id, timer_id: id, slot_at: last, status: 'succeeded' as const, amount: 500, reason: null, created_at: last }
    : null,
  failures: 0,
});

function render(lng: string) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const page: AdminAutoTopupPage = {
    data: [
      // 19:30 in Berlin in winter is 18:30 UTC (and 18:30 in London).
      timer(1, 'Europe/Berlin', '2026-11-30T18:30:00.000Z', '2026-11-25T18:30:00.000Z'),
      timer(2, null, '2026-11-30T19:30:00.000Z', null),
    ],
    page: 1,
    has_more: false,
    total: 2,
  };
  client.setQueryData(adminKeys.autoTopup(1), page);
  client.setQueryData(['app', 'config'], { currency: 'EUR' });
  void i18n.changeLanguage(lng);
  const html = renderWith(
    i18n,
    createElement(
      MemoryRouter,
      { initialEntries: ['/admin/auto-topup'] },
      createElement(QueryClientProvider, { client }, createElement(AutoTopupPage)),
    ),
  );
  const rows = [...html.matchAll(/<tr[^>]*data-zone="([^"]+)"[^>]*>(.*?)<\/tr>/g)].map((m) => ({
    zone: m[1],
    text: m[2].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '),
  }));
  return rows;
}

describe('admin auto-topup review', () => {
  it.each([
    ['en', 'Europe/Berlin time', 'UTC time'],
    ['de', 'Zeitzone Europe/Berlin', 'Zeitzone UTC'],
    ['es', 'hora de Europe/Berlin', 'hora de UTC'],
  ])('shows every time of a row in the timer zone, named once (%s)', (lng, berlin, utc) => {
    const [first, second] = render(lng);
    expect(first.zone).toBe('Europe/Berlin');
    expect(first.text).toContain(berlin);
    // The set time, the next and the last run: all 19:30, none at the browser's 18:30.
    expect(first.text.match(/19:30/g)).toHaveLength(3);
    expect(first.text).not.toContain('18:30');
    expect(second.zone).toBe('UTC');
    expect(second.text).toContain(utc);
    expect(second.text.match(/19:30/g)).toHaveLength(2);
  });
});
