// The owner's daily impressions, profile views and phone reveals (DESIGN.md "Other screens") as a line
// chart. uPlot (about 50 kB, no dependencies) is imported here only, so it travels in the edit section's
// chunk and nobody else downloads it. The numbers are also in a table for screen readers and keyboards.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { StatsDay } from '#shared/schemas/profile-edit.ts';
import { intlLocale } from '#shared/views/format.ts';

const COLORS = { impressions: '#6366f1', views: '#db2777', phone_reveals: '#059669' } as const;
const HEIGHT = 220;

export function StatsChart({ stats }: { stats: StatsDay[] }) {
  const { t, i18n } = useTranslation('edit');
  const box = useRef<HTMLDivElement>(null);
  const locale = intlLocale(i18n.language);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = stats.map((s) => Date.parse(`${s.day}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [
      xs,
      stats.map((s) => s.impressions),
      stats.map((s) => s.views),
      stats.map((s) => s.phone_reveals),
    ];
    const dayLabel = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const line = (label: string, stroke: string): uPlot.Series => ({ label, stroke, width: 2, points: { size: 4 } });
    const chart = new uPlot(
      {
        width: Math.max(240, el.clientWidth),
        height: HEIGHT,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        series: [
          { label: t('overview.day'), value: (_u, v) => (v === null ? '' : dayLabel.format(new Date(v * 1000))) },
          line(t('overview.impressions'), COLORS.impressions),
          line(t('overview.views'), COLORS.views),
          line(t('overview.reveals'), COLORS.phone_reveals),
        ],
        axes: [
          { values: (_u, ticks) => ticks.map((v) => dayLabel.format(new Date(v * 1000))), space: 60 },
          { size: 40 },
        ],
        legend: { live: true },
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(240, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [stats, t, locale]);

  const dateLabel = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (
    <figure className="stats-chart">
      <div
        ref={box}
        className="stats-chart__canvas"
        role="img"
        aria-label={t('overview.chartLabel', { days: stats.length })}
      />
      <details className="stats-chart__table small">
        <summary>{t('overview.table')}</summary>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('overview.day')}</th>
              <th scope="col">{t('overview.impressions')}</th>
              <th scope="col">{t('overview.views')}</th>
              <th scope="col">{t('overview.reveals')}</th>
            </tr>
          </thead>
          <tbody>
            {stats.map((s) => (
              <tr key={s.day}>
                <th scope="row">{dateLabel.format(new Date(`${s.day}T00:00:00Z`))}</th>
                <td>{s.impressions}</td>
                <td>{s.views}</td>
                <td>{s.phone_reveals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
