// A small area chart of a 30-day series, drawn in SVG (no chart library). It scales to
// its box; the label tells screen readers what the picture shows.
import { useId } from 'react';

export interface TrendPoint {
  date: string;
  value: number;
}

export function chartPath(
  points: readonly number[],
  width: number,
  height: number,
  pad = 4,
): { line: string; area: string } {
  if (points.length === 0) return { line: '', area: '' };
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const coords = points.map((v, i) => {
    const x = i * step;
    // A flat series sits in the middle rather than on the floor.
    const y = max === min ? height / 2 : pad + (1 - (v - min) / span) * (height - 2 * pad);
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10] as const;
  });
  const line = coords.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x} ${y}`).join(' ');
  const area = `${line} L${coords.at(-1)![0]} ${height} L0 ${height} Z`;
  return { line, area };
}

export function TrendChart({ points, label }: { points: TrendPoint[]; label: string }) {
  const gradient = useId();
  const { line, area } = chartPath(
    points.map((p) => p.value),
    300,
    90,
  );
  return (
    <svg className="trend-chart" viewBox="0 0 300 90" preserveAspectRatio="none" role="img" aria-label={label}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="var(--chart-line)" stopOpacity="0.28" />
          <stop offset="1" stopColor="var(--chart-line)" stopOpacity="0" />
        </linearGradient>
      </defs>
      <path d={area} fill={`url(#${gradient})`} />
      <path
        d={line}
        fill="none"
        stroke="var(--chart-line)"
        strokeWidth="2.2"
        vectorEffect="non-scaling-stroke"
        strokeLinejoin="round"
      />
    </svg>
  );
}
