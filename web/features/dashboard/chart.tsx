import { useEffect, useId, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { CHART_RESIZE_DEBOUNCE_MS, CHART_TRANSITION_POINT_LIMIT } from '#contract/constants';
import { dayLabel, dayLabelShort } from './format.ts';
import { chartRows, compact, isoOf } from './chart-data.ts';

// A chart of values by day (ADR 031). uPlot draws it on a canvas, loaded on first use (its own chunk, fetched by
// the dashboard only, never by a guest page). The canvas is hidden from screen readers: the figure's caption says
// what it shows in words, and its table (under "Таблица") gives every day that has a value.
// SPEC §9: up to CHART_TRANSITION_POINT_LIMIT points the chart is revealed with a transition, above it not at all;
// a change of the chart's width redraws it, debounced by CHART_RESIZE_DEBOUNCE_MS.

export interface ChartSeries {
  label: string;
  values: number[];
  /** A CSS color (the chart's palette is in dashboard.css's custom properties, read at draw time). */
  color: string;
  /** Bars (amounts, counts) or a line (views). */
  kind: 'bars' | 'line';
  format: (value: number) => string;
}

const HEIGHT = 220;

export function TimeChart({ title, summary, days, series, testId }: { title: string; summary: string; days: string[]; series: ChartSeries[]; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const captionId = useId();
  const [failed, setFailed] = useState(false);
  const animated = days.length <= CHART_TRANSITION_POINT_LIMIT;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    import('uplot')
      .then(({ default: UPlot }) => {
        if (disposed) return;
        const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
        const bars = UPlot.paths.bars!({ size: [0.7, 28, 2], gap: 1 });
        plot = new UPlot(
          {
            width: Math.max(el.clientWidth, 200),
            height: HEIGHT,
            legend: { show: true, live: true },
            cursor: { drag: { x: false, y: false }, points: { show: series.some((s) => s.kind === 'line') } },
            // Half a day either side, so that the first and last days' bars are whole.
            scales: { x: { time: false, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
            series: [
              { label: 'День', value: (_u, v) => (v == null ? '—' : dayLabel(isoOf(v))) },
              ...series.map((s) => ({
                label: s.label,
                stroke: s.color,
                fill: s.kind === 'bars' ? s.color : undefined,
                width: s.kind === 'line' ? 2 : 0,
                paths: s.kind === 'bars' ? bars : undefined,
                points: { show: s.kind === 'line' && days.length <= 31 },
                value: (_u: uPlot, v: number | null) => (v == null ? '—' : s.format(v)),
              })),
            ],
            axes: [
              { values: (_u, splits) => splits.map((v) => dayLabelShort(isoOf(v))), grid: { show: false }, space: 60 },
              { values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? compact(v, series[0]!.format) : '')), size: 64 },
            ],
          },
          [xs, ...series.map((s) => s.values)],
          el,
        );
      })
      .catch(() => !disposed && setFailed(true));
    // Only a change of width redraws; the first call of the observer (on observe) is skipped with it.
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      clearTimeout(timer);
      timer = setTimeout(() => plot?.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }), CHART_RESIZE_DEBOUNCE_MS);
    });
    observer.observe(el);
    return () => {
      disposed = true;
      observer.disconnect();
      clearTimeout(timer);
      plot?.destroy();
    };
  }, [days, series]);

  const rows = chartRows(days, series);
  return (
    <figure className="dash-chart card" aria-labelledby={captionId} data-testid={testId}>
      <figcaption id={captionId} className="dash-chart__caption">
        <span className="dash-chart__title">{title}</span>
        <span className="dash-chart__summary">{summary}</span>
      </figcaption>
      <div ref={box} className={`dash-chart__plot${animated ? ' dash-chart__plot--animated' : ''}`} aria-hidden="true" data-points={days.length} />
      {failed && <p className="muted">График не загрузился: данные — в таблице ниже.</p>}
      <details className="dash-chart__table">
        <summary>Таблица</summary>
        {rows.length ? (
          <table className="table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">День</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.day}>
                  <th scope="row">{dayLabel(r.day)}</th>
                  {r.values.map((v, i) => (
                    <td key={series[i]!.label} data-label={series[i]!.label}>
                      {series[i]!.format(v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">За этот период данных нет.</p>
        )}
        {rows.length > 0 && rows.length < days.length && <p className="muted dash-chart__note">Дни без данных не показаны.</p>}
      </details>
    </figure>
  );
}
