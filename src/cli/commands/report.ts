import { writeFile } from 'node:fs/promises';
import { CountEnvelope } from '../../domain/envelopes';
import { stringFlag, userPath, UsageError, type Command } from '../command';
import { renderReport } from '../report-html';

// `report`: a self-contained HTML dashboard of a filter set, drawn from the API's own
// count endpoint (histogram=published&interval=week&stats=rate). It needs no database or search
// engine: only the API's URL and a key, read from the environment so that it never appears in a
// shell history, a process list or the page.

export const REPORT_KEY_ENV = 'OPPORTUNITY_API_KEY';
/** The report asks for these itself. */
const OWN_PARAMETERS = ['histogram', 'interval', 'stats'];

export const reportCommand: Command = {
  name: 'report',
  accepts: { flags: ['api', 'filters', 'out', 'title'], positional: [0, 0] },
  usage: 'report --api URL [--filters QUERY] [--out FILE] [--title TEXT]',
  help: `
Writes a self-contained HTML report (no script, nothing loaded from anywhere, no key inside) of
the opportunities matching QUERY: new opportunities per week (a bar chart) and the rate table
(count, min, 25th percentile, median, 75th percentile and max per unit and currency).

  --api URL        the API's base URL, e.g. https://api.example.com
  --filters QUERY  count filters as a query string, e.g.
                   'job_family=data&country=GB&fresh_after=2026-01-01' (default: none)
  --out FILE       where to write the page (default: opportunity-report.html)
  --title TEXT     the page's heading (default: Opportunity report)

The key is read from ${REPORT_KEY_ENV}. The count is free: the report consumes no allowance.
Exit status 1 when the API refuses the request (its error code and message are printed).`,
  async run(args) {
    const api = stringFlag(args, 'api');
    if (!api) throw new UsageError('--api is required (the API base URL)');
    let base: URL;
    try {
      base = new URL(api);
    } catch {
      throw new UsageError('--api must be an absolute http(s) URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new UsageError('--api must be an absolute http(s) URL');
    }
    // fetch refuses such a URL with a message that quotes it, password and all.
    if (base.username || base.password) {
      throw new UsageError(`--api must not carry credentials: the key goes in ${REPORT_KEY_ENV}`);
    }
    const key = process.env[REPORT_KEY_ENV];
    if (!key) throw new UsageError(`set ${REPORT_KEY_ENV} to the API key`);
    const filters = stringFlag(args, 'filters') ?? '';
    const query = new URLSearchParams(filters);
    for (const name of OWN_PARAMETERS) {
      if (query.has(name)) throw new UsageError(`--filters must not set ${name}: the report does`);
    }
    query.set('histogram', 'published');
    query.set('interval', 'week');
    query.set('stats', 'rate');
    const out = userPath(stringFlag(args, 'out') ?? 'opportunity-report.html');
    const title = stringFlag(args, 'title') ?? 'Opportunity report';

    const url = new URL('v1/opportunities/count', base.href.endsWith('/') ? base : `${base.href}/`);
    url.search = query.toString();
    const res = await fetch(url, { headers: { 'X-API-Key': key, Accept: 'application/json' } });
    const body: unknown = await res.json().catch(() => null);
    if (res.status !== 200) {
      const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
      return {
        ok: false,
        status: res.status,
        code: error?.code ?? null,
        message: error?.message ?? `the API answered ${res.status}`,
      };
    }
    const envelope = CountEnvelope.parse(body);
    const histogram = envelope.histogram ?? [];
    const rateStats = envelope.rate_stats ?? [];
    await writeFile(
      out,
      renderReport({
        title,
        apiBase: base.origin + base.pathname,
        filters,
        generatedAt: new Date(),
        count: envelope.count,
        histogram,
        rateStats,
      }),
      'utf8',
    );
    return {
      ok: true,
      out,
      count: envelope.count,
      weeks: histogram.length,
      rate_entries: rateStats.length,
      request_id: envelope.meta.request_id,
    };
  },
};
