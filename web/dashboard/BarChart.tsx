import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { axisLabel } from './axis-label';
import { loadUPlot } from './Chart';
import { useT } from './i18n';

/** One bar: what it counts (a step, a method, a reason) and its value. */
export interface Bar {
  label: string;
  value: number;
}

const ACCENT = '#1a56db';
const AXIS = '#52606d';
const BAR_HEIGHT = 34;

/**
 * Horizontal bars drawn by uPlot (ADR 0071, loaded when a chart is first drawn), one per row of the
 * table it stands beside: the drawing is for the eye (hidden from screen readers), the table beside
 * it carries every value for screen readers and for anyone who wants the exact figure. `max` fixes
 * the end of the value axis (1 for rates); otherwise it follows the largest value.
 */
export function BarChart({ bars, format, max, testId }: { bars: Bar[]; format: (value: number) => string; max?: number; testId?: string }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const data = JSON.stringify(bars);
  // Read when the chart draws (its axis values, on every resize too): the latest one, without drawing again.
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    let cancelled = false;
    let chart: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    const at = JSON.parse(data) as Bar[];
    if (at.length === 0) return;
    loadUPlot()
      .then((UPlot) => {
        const element = box.current;
        if (cancelled || !element) return;
        const top = max ?? Math.max(1, ...at.map((b) => b.value));
        const labelWidth =
          16 +
          7 *
            Math.max(
              ...at.flatMap((b) =>
                axisLabel(b.label)
                  .split('\n')
                  .map((line) => line.length),
              ),
            );
        const size = () => ({ width: Math.max(220, element.clientWidth), height: 40 + at.length * BAR_HEIGHT });
        chart = new UPlot(
          {
            ...size(),
            legend: { show: false },
            cursor: { show: false },
            scales: {
              // The bars' axis runs down the left side, first row on top, as in the table.
              x: { time: false, ori: 1, dir: -1, range: [-0.5, at.length - 0.5] },
              y: { ori: 0, range: [0, top] },
            },
            series: [{}, { fill: ACCENT, stroke: ACCENT, paths: UPlot.paths.bars?.({ size: [0.7, 24] }), points: { show: false } }],
            axes: [
              {
                side: 3,
                stroke: AXIS,
                size: labelWidth,
                grid: { show: false },
                ticks: { show: false },
                splits: () => at.map((_, i) => i),
                values: (_u, splits) => splits.map((i) => axisLabel(at[i]?.label ?? '')),
              },
              {
                side: 2,
                stroke: AXIS,
                size: 32,
                space: 60,
                incrs: max === undefined ? [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] : undefined,
                values: (_u, splits) => splits.map((v) => formatRef.current(v)),
              },
            ],
          },
          [at.map((_, i) => i), at.map((b) => b.value)],
          element,
        );
        resize = new ResizeObserver(() => chart?.setSize(size()));
        resize.observe(element);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [data, max]);

  if (bars.length === 0) return null;
  return (
    <div className="bar-chart" data-testid={testId}>
      <div ref={box} className="chart-canvas" aria-hidden="true" />
      {failed && <p className="hint">{t('chart.unavailable')}</p>}
    </div>
  );
}
