/**
 * A bar chart drawn by uPlot (the charting library the office uses; only this screen loads it):
 * one bar per label, labels along the bottom, values in shillings up the side. It redraws at the
 * width of its box, so it fits a phone and a desk alike.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { html } from '../../ui/html.js';

export interface Series {
  labels: string[];
  values: number[];
}

const short = (n: number) =>
  Math.abs(n) >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : Math.abs(n) >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(n);

/** A day as MM-DD (the year is in the period above the chart); any other label as it is. */
const label = (s: string) => (/^\d{4}-\d\d-\d\d$/.test(s) ? s.slice(5) : s);
/** The bars that get a label: as many as fit at about 64 px each. */
function every(count: number, width: number): number[] {
  const step = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(width / 64))));
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
}

export function BarChart({ title, data, testid, line = false }: { title: string; data: Series; testid: string; line?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !data.labels.length) return;
    const { labels, values } = data;
    const width = () => Math.max(240, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 220,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          {
            values: (_u, ticks) => ticks.map((i) => label(labels[i] ?? '')),
            splits: (u) => every(labels.length, u.width),
          },
          { values: (_u, ticks) => ticks.map(short), size: 50 },
        ],
        series: [
          {},
          line
            ? { label: title, stroke: '#0f766e', width: 2, points: { show: labels.length < 40 } }
            : {
                label: title,
                fill: '#0f766eaa',
                stroke: '#0f766e',
                paths: uPlot.paths.bars!({ size: [0.7, 60] }),
                points: { show: false },
              },
        ],
      },
      [labels.map((_, i) => i), values],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [JSON.stringify(data), line]);
  if (!data.labels.length) return null;
  return html`<figure class="chart" data-testid=${testid}>
    <figcaption>${title}</figcaption>
    <div ref=${box}></div>
  </figure>`;
}
