/**
 * Queries per second, stacked by answer (NOERROR, NODATA, NXDOMAIN, REFUSED, SERVFAIL, other),
 * drawn by uPlot (~50 kB, canvas): this module and the library load with the Traffic tab only.
 * Stacking: each series is the running sum of the categories below it, filled down to zero and
 * drawn largest first, so each band shows one category; the legend shows each one's own rate.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { QuerySeries } from '../../lib/api-types';
import './traffic.css';

export const CATEGORIES = [
  { field: 'noerror', label: 'NOERROR', color: '#17713e' },
  { field: 'nodata', label: 'NODATA', color: '#5fa37a' },
  { field: 'nxdomain', label: 'NXDOMAIN', color: '#c98a00' },
  { field: 'refused', label: 'REFUSED', color: '#7a5bd1' },
  { field: 'servfail', label: 'SERVFAIL', color: '#c22a2a' },
  { field: 'other_rcode', label: 'Other', color: '#5b6678' },
] as const;

function chartData(series: QuerySeries): { data: uPlot.AlignedData; own: number[][] } {
  const x = series.points.map((p) => Date.parse(p.at) / 1000);
  const own = CATEGORIES.map((c) => series.points.map((p) => p[c.field] / series.step));
  const stacked: number[][] = [];
  let below = x.map(() => 0);
  for (const o of own) {
    below = below.map((b, i) => b + o[i]!);
    stacked.push(below);
  }
  // Largest (every category) first, so the smaller sums paint their bands over it.
  return { data: [x, ...stacked.reverse()], own: [...own].reverse() };
}

export function TrafficChart({ series, label }: { series: QuerySeries; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const own = useRef<number[][]>([]);

  useEffect(() => {
    const el = host.current!;
    const { data, own: values } = chartData(series);
    own.current = values;
    const rate = (v: number | null) => (v == null ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(0));
    const opts: uPlot.Options = {
      width: Math.max(300, el.clientWidth),
      height: 260,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [{}, { label: 'queries/s', size: 60 }],
      series: [
        {},
        ...[...CATEGORIES].reverse().map((c, i) => ({
          label: c.label,
          stroke: c.color,
          fill: c.color + '99',
          width: 1,
          points: { show: false },
          value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) => rate(idx == null ? null : (own.current[i]?.[idx] ?? null)),
        })),
      ],
      legend: { live: true },
    };
    const u = new uPlot(opts, data, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(300, el.clientWidth), height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Built once; new data goes through setData below.
  }, []);

  useEffect(() => {
    if (!plot.current) return;
    const { data, own: values } = chartData(series);
    own.current = values;
    plot.current.setData(data);
  }, [series]);

  return <div ref={host} className="traffic-chart" role="img" aria-label={label} data-points={series.points.length} />;
}
