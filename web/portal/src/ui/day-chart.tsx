import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';

const HEIGHT = 220;

/** Every UTC day from `from` to `to` ('YYYY-MM-DD'), both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t <= end; t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * One figure per UTC day drawn by uPlot (a canvas): a day without a value (no report covers it) is a
 * gap in the line, never a 0. The canvas is one image to a screen reader, named by `summary`; the
 * page's tables carry the figures themselves.
 */
export function DayChart(props: {
  readonly days: readonly string[];
  readonly values: readonly (number | null)[];
  readonly label: string;
  readonly summary: string;
  /** Percent figures: the axis runs 0 to 100 and reads "90%". */
  readonly percent?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { days, values, label } = props;
  const percent = props.percent ?? false;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let gone = false;
    void import('./uplot-module').then(({ default: UPlot }) => {
      if (gone) return;
      const drawn = drawChart(UPlot, element, { days, values, label, percent });
      plot = drawn;
      resize = new ResizeObserver(() => drawn.setSize({ width: Math.max(240, element.clientWidth), height: HEIGHT }));
      resize.observe(element);
    });
    return () => {
      gone = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [days, values, label, percent]);
  return <div ref={box} className="day-chart" role="img" aria-label={props.summary} />;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });

function drawChart(
  UPlot: typeof uPlot,
  element: HTMLElement,
  chart: { readonly days: readonly string[]; readonly values: readonly (number | null)[]; readonly label: string; readonly percent: boolean },
): uPlot {
  const xs = chart.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const line: uPlot.Series = chart.percent
    ? { label: chart.label, stroke: '#047857', width: 2, points: { show: true, size: 6 } }
    : { label: chart.label, stroke: '#1d4ed8', width: 2, fill: 'rgba(29, 78, 216, 0.12)', points: { show: true, size: 6 } };
  return new UPlot(
    {
      width: Math.max(240, element.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      // The days are UTC days: the axis says them as such, whatever the browser's zone.
      tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: chart.percent ? { range: [0, 100] } : { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { stroke: '#334155', grid: { stroke: '#e2e8f0' } },
        {
          stroke: '#334155',
          grid: { stroke: '#e2e8f0' },
          size: 56,
          values: (_u, ticks) => ticks.map((v) => (chart.percent ? `${v}%` : compact.format(v))),
        },
      ],
      series: [{}, line],
    },
    [xs, [...chart.values]],
    element,
  );
}
