// Reading /metrics as a test does: one series' value from the Prometheus text exposition.

/** The value of one series (`name{labels}`) at `baseUrl`/metrics, 0 when absent. */
export async function metricSample(
  baseUrl: string,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.slice(name.length).split(' ')[0] ?? '';
    if (wanted.every((w) => labelPart.includes(w))) return Number(line.split(' ').pop());
  }
  return 0;
}
