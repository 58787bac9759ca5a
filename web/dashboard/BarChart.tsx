import { useT } from './i18n';

/**
 * A bar chart in plain SVG: one series, one bar per day, a baseline and a top value. Hand-rolled
 * because the dashboard needs exactly this and a chart library would weigh more than the page. The
 * numbers are also in a table for screen readers and for anyone who wants exact values.
 */
export function BarChart({
  title,
  points,
  format,
}: {
  title: string;
  points: Array<{ label: string; value: number }>;
  format: (value: number) => string;
}) {
  const t = useT();
  const width = 640;
  const height = 180;
  const gap = 2;
  const max = Math.max(0, ...points.map((p) => p.value));
  const barWidth = points.length ? (width - gap * (points.length - 1)) / points.length : width;
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const id = title.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <figure className="chart">
      <figcaption id={`${id}-caption`}>
        <span className="chart-title">{title}</span> <span className="chart-total">{format(total)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby={`${id}-caption`} preserveAspectRatio="none">
        <line x1="0" y1={height} x2={width} y2={height} className="chart-axis" />
        {points.map((p, i) => {
          const h = max === 0 ? 0 : Math.max(p.value > 0 ? 2 : 0, (p.value / max) * (height - 10));
          return (
            <rect key={p.label} x={i * (barWidth + gap)} y={height - h} width={barWidth} height={h} className="chart-bar">
              <title>{t('chart.point', { label: p.label, value: format(p.value) })}</title>
            </rect>
          );
        })}
        {points.length > 0 && (
          <>
            <text x="0" y={height + 16} className="chart-label">
              {points[0]!.label}
            </text>
            <text x={width} y={height + 16} textAnchor="end" className="chart-label">
              {points.at(-1)!.label}
            </text>
          </>
        )}
      </svg>
      <details>
        <summary>{t('chart.valuesByDay', { title: title.toLowerCase() })}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <td>{p.label}</td>
                <td>{format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
