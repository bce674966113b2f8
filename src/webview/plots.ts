/// <reference lib="dom" />
// Result plots with Chart.js (bundled into the webview): a line chart for one swept parameter, a heat map
// (chartjs-chart-matrix) for two, a histogram for Monte Carlo and sampled columns. Colours come from the
// theme (--vscode-charts-*), so the plots follow light, dark and high-contrast themes.
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Title, Tooltip,
  type ChartConfiguration, type ScriptableContext,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import type { PlotSpec } from '../host/witness-view-types';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, BarController, BarElement, Tooltip, Legend, Title, MatrixController, MatrixElement);

function themeColour(variable: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(variable).trim();
  return v || fallback;
}

const SERIES = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];
const SERIES_FALLBACK = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

/** `#rrggbb` or `rgb(…)` to its channels (theme colours are given either way). */
function channels(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(colour);
  if (hex) return [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16), parseInt(hex[3]!, 16)];
  const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return [55, 148, 255];
}

const label = (name: string, unit?: string) => (unit ? `${name} [${unit}]` : name);
const short = (n: number) => String(Number(n.toPrecision(4)));

function configuration(plot: PlotSpec): ChartConfiguration {
  const foreground = themeColour('--vscode-foreground', '#cccccc');
  const grid = themeColour('--vscode-editorWidget-border', 'rgba(128,128,128,0.35)');
  const scale = (title: string) => ({ title: { display: true, text: title, color: foreground }, ticks: { color: foreground }, grid: { color: grid } });
  const common = {
    animation: false as const,
    responsive: true,
    maintainAspectRatio: false,
    plugins: { title: { display: true, text: plot.title, color: foreground }, legend: { labels: { color: foreground } } },
  };
  switch (plot.kind) {
    case 'line':
      return {
        type: 'line',
        data: {
          datasets: plot.series.map((s, i) => {
            const colour = themeColour(SERIES[i % SERIES.length]!, SERIES_FALLBACK[i % SERIES.length]!);
            return { label: label(s.name, s.unit), data: s.points.map(([x, y]) => ({ x, y })), borderColor: colour, backgroundColor: colour, pointRadius: 3 };
          }),
        },
        options: { ...common, scales: { x: { type: 'linear', ...scale(label(plot.x, plot.xUnit)) }, y: { type: 'linear', ...scale(plot.series.length === 1 ? label(plot.series[0]!.name, plot.series[0]!.unit) : 'value') } } },
      };
    case 'histogram': {
      const colour = themeColour(SERIES[0]!, SERIES_FALLBACK[0]!);
      return {
        type: 'bar',
        data: {
          labels: plot.bins.map((b) => `${short(b.from)} – ${short(b.to)}`),
          datasets: [{ label: `${label(plot.column, plot.unit)}: runs per bin`, data: plot.bins.map((b) => b.count), backgroundColor: colour, barPercentage: 1, categoryPercentage: 1 }],
        },
        options: { ...common, scales: { x: { type: 'category', ...scale(label(plot.column, plot.unit)) }, y: { type: 'linear', beginAtZero: true, ...scale('count') } } },
      };
    }
    case 'heatmap': {
      const [r, g, b] = channels(themeColour(SERIES[0]!, SERIES_FALLBACK[0]!));
      const values = plot.cells.map((c) => c.v);
      const min = Math.min(...values);
      const max = Math.max(...values);
      const alpha = (v: number) => (max === min ? 0.8 : 0.1 + (0.9 * (v - min)) / (max - min));
      const xs = plot.xs.map(String);
      const ys = plot.ys.map(String);
      return {
        type: 'matrix',
        data: {
          datasets: [{
            label: label(plot.value, plot.unit),
            data: plot.cells.map((c) => ({ x: String(c.x), y: String(c.y), v: c.v })),
            backgroundColor: (ctx: ScriptableContext<'matrix'>) => `rgba(${r}, ${g}, ${b}, ${alpha((ctx.raw as { v: number } | undefined)?.v ?? min)})`,
            borderWidth: 1,
            borderColor: grid,
            width: ({ chart }: ScriptableContext<'matrix'>) => (chart.chartArea?.width ?? 0) / xs.length - 2,
            height: ({ chart }: ScriptableContext<'matrix'>) => (chart.chartArea?.height ?? 0) / ys.length - 2,
          }],
        },
        options: {
          ...common,
          plugins: {
            ...common.plugins,
            legend: { display: false },
            tooltip: { callbacks: { label: (ctx) => { const d = ctx.raw as { x: string; y: string; v: number }; return `${plot.x} ${d.x}, ${plot.y} ${d.y}: ${d.v}${plot.unit ? ` [${plot.unit}]` : ''}`; } } },
          },
          scales: {
            x: { type: 'category', labels: xs, offset: true, ...scale(plot.x), grid: { display: false } },
            y: { type: 'category', labels: ys, offset: true, reverse: true, ...scale(plot.y), grid: { display: false } },
          },
        },
      } as ChartConfiguration;
    }
  }
}

export function drawPlot(canvas: HTMLCanvasElement, plot: PlotSpec): Chart {
  return new Chart(canvas, configuration(plot));
}
