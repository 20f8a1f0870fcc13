// The dashboard report of `cli report`: one self-contained HTML page (no script, no external
// resource, a Content-Security-Policy that forbids loading any) drawn from one count envelope with
// a weekly histogram and rate statistics. Every value that came from the API, the filters or the
// command line is escaped: records are untrusted text, and so is anything echoed from a query.

import type { HistogramBucket, RateStatsEntry } from '../domain/aggregates';

export interface ReportInput {
  title: string;
  apiBase: string;
  /** The filters as the caller gave them (a query string), shown as given. */
  filters: string;
  generatedAt: Date;
  count: number;
  histogram: HistogramBucket[];
  rateStats: RateStatsEntry[];
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The figures as the table shows them: at most two decimals, thousands separated. */
export function formatNumber(value: number | null): string {
  if (value === null) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

const CHART = { width: 880, height: 260, left: 48, bottom: 28, top: 12 };

function chart(buckets: readonly HistogramBucket[]): string {
  if (buckets.length === 0) return '<p class="empty">No matching opportunities.</p>';
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const plotW = CHART.width - CHART.left - 8;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const step = plotW / buckets.length;
  const barW = Math.max(1, step * 0.8);
  const bars = buckets
    .map((b, i) => {
      const h = (b.count / max) * plotH;
      const x = CHART.left + i * step + (step - barW) / 2;
      const y = CHART.top + plotH - h;
      const label = `Week of ${b.start.slice(0, 10)}: ${b.count}`;
      return (
        `<rect class="bar" data-start="${escapeHtml(b.start)}" data-count="${b.count}" ` +
        `x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${barW.toFixed(2)}" height="${h.toFixed(2)}">` +
        `<title>${escapeHtml(label)}</title></rect>`
      );
    })
    .join('');
  const first = buckets[0]?.start.slice(0, 10) ?? '';
  const last = buckets[buckets.length - 1]?.start.slice(0, 10) ?? '';
  const baseY = CHART.top + plotH;
  return (
    `<svg class="chart" role="img" aria-label="New opportunities per week" ` +
    `viewBox="0 0 ${CHART.width} ${CHART.height}" width="${CHART.width}" height="${CHART.height}" xmlns="http://www.w3.org/2000/svg">` +
    `<line class="axis" x1="${CHART.left}" y1="${baseY}" x2="${CHART.width - 8}" y2="${baseY}"/>` +
    `<text class="y-max" x="${CHART.left - 6}" y="${CHART.top + 10}" text-anchor="end">${max}</text>` +
    `<text x="${CHART.left - 6}" y="${baseY}" text-anchor="end">0</text>` +
    bars +
    `<text x="${CHART.left}" y="${CHART.height - 8}">${escapeHtml(first)}</text>` +
    `<text x="${CHART.width - 8}" y="${CHART.height - 8}" text-anchor="end">${escapeHtml(last)}</text>` +
    `</svg>`
  );
}

const RATE_COLUMNS = ['min', 'p25', 'median', 'p75', 'max'] as const;

function rateTable(rates: readonly RateStatsEntry[]): string {
  if (rates.length === 0) return '<p class="empty">No matching opportunity states a rate.</p>';
  const rows = rates
    .map(
      (r) =>
        `<tr><td class="unit">${escapeHtml(r.unit)}</td><td class="currency">${escapeHtml(r.currency)}</td>` +
        `<td class="num count" data-value="${r.count}">${formatNumber(r.count)}</td>` +
        RATE_COLUMNS.map(
          (k) =>
            `<td class="num ${k}" data-value="${r[k] === null ? '' : r[k]}">${escapeHtml(formatNumber(r[k]))}</td>`,
        ).join('') +
        '</tr>',
    )
    .join('');
  return (
    '<table id="rates"><thead><tr><th>Unit</th><th>Currency</th><th>Records</th><th>Min</th>' +
    '<th>25th pct.</th><th>Median</th><th>75th pct.</th><th>Max</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`
  );
}

function weekTable(buckets: readonly HistogramBucket[]): string {
  const rows = buckets
    .map(
      (b) => `<tr><td>${escapeHtml(b.start.slice(0, 10))}</td><td class="num">${b.count}</td></tr>`,
    )
    .join('');
  return (
    '<details><summary>Weekly counts as a table</summary><table id="weeks"><thead><tr>' +
    `<th>Week (from Monday, UTC)</th><th>Opportunities</th></tr></thead><tbody>${rows}</tbody></table></details>`
  );
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 920px; color: #1d232b; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
.meta { color: #5b6573; margin-top: 0; }
code { background: #f2f4f7; padding: .1rem .3rem; border-radius: 3px; word-break: break-all; }
.chart .bar { fill: #3867d6; }
.chart .axis { stroke: #8a94a3; }
.chart text { font-size: 11px; fill: #5b6573; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e3e7ed; }
td.num, th:nth-child(n+3) { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #5b6573; font-size: .9rem; }
`;

/** The whole page. Nothing in it loads anything; no key is ever passed in. */
export function renderReport(input: ReportInput): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<p class="meta">Filters: <code id="filters">${escapeHtml(input.filters || '(none)')}</code><br>
<span id="total">${formatNumber(input.count)}</span> matching opportunities · from
<code>${escapeHtml(input.apiBase)}</code> · ${escapeHtml(input.generatedAt.toISOString())}</p>
<h2>New opportunities per week</h2>
<p class="note">By freshness (published date, else first seen), weeks from Monday 00:00 UTC.</p>
${chart(input.histogram)}
${weekTable(input.histogram)}
<h2>Rates</h2>
<p class="note">Per unit and currency (never converted). A record's value is the midpoint of its
rate's min and max; count, min and max are exact, the percentiles within 5 %. A dash: too few
records for the service to show statistics.</p>
${rateTable(input.rateStats)}
</body>
</html>
`;
}
