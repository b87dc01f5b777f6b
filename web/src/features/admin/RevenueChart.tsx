import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface RevenueDay {
  day: string;
  revenue: number;
  orders: number;
}

/** "Nov 26" for a YYYY-MM-DD day (UTC). */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const dollars = (value: number) =>
  value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/**
 * Revenue per day as bars, drawn by uPlot (a small canvas chart library). uPlot and its stylesheet are
 * imported here only, and the admin overview loads this module with a lazy import (React.lazy): no other page
 * downloads them, and the overview's own figures show before the chart arrives. The canvas is decoration for sighted users (aria-hidden): the same figures are in the table
 * the overview renders under it.
 */
export default function RevenueChart({ days }: { days: RevenueDay[] }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = days.map((_d, i) => i);
    // A day without sales draws no bar (a 0 would draw a flat stroke).
    const ys = days.map((d) => (d.revenue > 0 ? d.revenue : null));
    const width = () => Math.max(260, element.clientWidth);
    const height = () => (element.clientWidth < 500 ? 200 : 260);
    const chart = new uPlot(
      {
        width: width(),
        height: height(),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: false, range: () => [-0.5, days.length - 0.5] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 10] },
        },
        axes: [
          {
            stroke: '#334155',
            grid: { show: false },
            space: 56,
            incrs: [1, 2, 3, 5, 7, 10, 15],
            values: (_u, splits) => splits.map((i) => (days[i] ? shortDay(days[i].day) : '')),
          },
          { stroke: '#334155', size: 64, values: (_u, splits) => splits.map(dollars), grid: { stroke: '#e2e8f0' } },
        ],
        series: [
          {},
          {
            label: 'Revenue',
            fill: 'rgba(220, 38, 38, 0.8)',
            stroke: '#b91c1c',
            width: 1,
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
            points: { show: false },
          },
        ],
      },
      [xs, ys],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height: height() }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days]);

  return <div ref={box} aria-hidden="true" className="min-h-[200px] w-full" data-testid="revenue-chart" />;
}
