import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type uPlot from 'uplot';
import { useT } from './i18n';
// uPlot's own stylesheet (0.7 kB gzip) goes with the dashboard's: importing it with the library would
// bring in the bundler's preload helper, which lives in the checkout page's first chunk.
import 'uplot/dist/uPlot.min.css';
// The library itself, as a file of its own: fetched by loadUPlot() when a chart is first drawn. (A
// dynamic import() would bring in the bundler's preload helper, which lives in the checkout page's
// first chunk: test/budget/checkout-size.test.ts keeps the dashboard off the checkout's chunks.)
import uPlotScript from 'uplot/dist/uPlot.iife.min.js?url';

declare global {
  interface Window {
    uPlot?: typeof uPlot;
  }
}

let loading: Promise<typeof uPlot> | null = null;

/** uPlot, loaded once by a script element (the dashboard's CSP allows scripts from its own origin). */
export function loadUPlot(): Promise<typeof uPlot> {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = uPlotScript;
    script.onload = () => (window.uPlot ? resolve(window.uPlot) : reject(new Error('uPlot did not load')));
    script.onerror = () => {
      loading = null;
      reject(new Error('uPlot did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

/** One day of a chart: its value, and the same day of the previous period (drawn for comparison). */
export interface ChartPoint {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  value: number;
  previousDay: string;
  previous: number;
}

/** A UTC day as the merchant's browser writes it: `Nov 23` (short) or `Nov 23, 2026`. */
const dayText = (day: string, style: 'short' | 'medium') =>
  new Intl.DateTimeFormat(undefined, style === 'short' ? { month: 'short', day: 'numeric', timeZone: 'UTC' } : { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

const ACCENT = '#1a56db';
const PREVIOUS = '#7b8794';

/**
 * A line chart drawn by uPlot (ADR 0071), loaded only when a chart is drawn: this period against
 * the previous one, with axes and their values, a tooltip on hover, and the same tooltip from the
 * keyboard (focus the chart, then ←/→, Home/End), spoken through a live region. The numbers are
 * also in a table for screen readers and for anyone who wants exact values.
 */
export function Chart({ title, points, format, testId }: { title: string; points: ChartPoint[]; format: (value: number) => string; testId?: string }) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const data = JSON.stringify(points);
  // Read when the chart draws (its axis values, on every resize too): the latest ones, without drawing the chart again.
  const text = useRef({ format, t });
  text.current = { format, t };

  useEffect(() => {
    let cancelled = false;
    let chart: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    const at = JSON.parse(data) as ChartPoint[];
    loadUPlot()
      .then((UPlot) => {
        const element = box.current;
        if (cancelled || !element) return;
        const size = () => ({ width: Math.max(200, element.clientWidth), height: 200 });
        chart = new UPlot(
          {
            ...size(),
            legend: { show: false },
            scales: { x: { time: false } },
            cursor: { y: false, points: { size: 8 } },
            series: [
              {},
              { label: title, stroke: ACCENT, width: 2, points: { show: at.length <= 31 } },
              { label: text.current.t('chart.previousPeriod'), stroke: PREVIOUS, width: 1.5, dash: [6, 4], points: { show: false } },
            ],
            axes: [
              {
                stroke: '#52606d',
                space: 56,
                incrs: [1, 2, 7, 14, 30],
                values: (_u, splits) => splits.map((i) => (at[i] ? dayText(at[i]!.day, 'short') : '')),
              },
              { stroke: '#52606d', size: 72, values: (_u, splits) => splits.map((v) => text.current.format(v)) },
            ],
            hooks: {
              setCursor: [
                (u) => {
                  if (u.cursor.idx !== null && u.cursor.idx !== undefined) setActive(u.cursor.idx);
                },
              ],
            },
          },
          [at.map((_, i) => i), at.map((p) => p.value), at.map((p) => p.previous)],
          element,
        );
        plot.current = chart;
        resize = new ResizeObserver(() => chart?.setSize(size()));
        resize.observe(element);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      resize?.disconnect();
      chart?.destroy();
      plot.current = null;
    };
  }, [data, title]);

  /** Moves the tooltip to a day, as a hover would. */
  const show = (index: number) => {
    const i = Math.max(0, Math.min(points.length - 1, index));
    setActive(i);
    const u = plot.current;
    if (u) u.setCursor({ left: u.valToPos(i, 'x'), top: u.valToPos(points[i]!.value, 'y') });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: (active ?? -1) + 1, ArrowLeft: (active ?? points.length) - 1, Home: 0, End: points.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    show(moves[e.key]!);
  };
  const point = active === null ? null : points[active];
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const previousTotal = points.reduce((sum, p) => sum + p.previous, 0);
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption id={`${id}-caption`}>
        <span className="chart-title">{title}</span> <span className="chart-total">{format(total)}</span>{' '}
        <span className="chart-previous">{t('chart.previousTotal', { value: format(previousTotal) })}</span>
      </figcaption>
      <p className="chart-legend" aria-hidden="true">
        <span className="chart-key chart-key-current" /> {t('chart.thisPeriod')} <span className="chart-key chart-key-previous" /> {t('chart.previousPeriod')}
      </p>
      {/* biome-ignore lint/a11y/useSemanticElements: a drawing with its tooltip, not form fields: a fieldset would mislabel it. */}
      <div
        className="chart-plot"
        role="group"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart takes the keyboard (←/→, Home/End move its tooltip).
        tabIndex={0}
        aria-labelledby={`${id}-caption`}
        aria-describedby={`${id}-help`}
        onKeyDown={onKeyDown}
        onFocus={() => active === null && points.length > 0 && show(points.length - 1)}
      >
        <div ref={box} className="chart-canvas" />
        <p id={`${id}-help`} className="visually-hidden">
          {t('chart.keyboardHelp')}
        </p>
        <div className="chart-tooltip" role="status" data-testid="chart-tooltip" hidden={!point}>
          {point &&
            t('chart.tooltip', {
              day: dayText(point.day, 'medium'),
              value: format(point.value),
              previousDay: dayText(point.previousDay, 'medium'),
              previous: format(point.previous),
            })}
        </div>
      </div>
      {failed && <p className="hint">{t('chart.unavailable')}</p>}
      <details>
        <summary>{t('chart.valuesByDay', { title: title.toLowerCase() })}</summary>
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('chart.day')}</th>
                <th scope="col">{title}</th>
                <th scope="col">{t('chart.previousDay')}</th>
                <th scope="col">{t('chart.previousPeriod')}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.day}>
                  <td>{p.day}</td>
                  <td className="num">{format(p.value)}</td>
                  <td>{p.previousDay}</td>
                  <td className="num">{format(p.previous)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
