// Summarises V8 .cpuprofile files (node --cpu-prof, `npm run bench -- --cpu-prof DIR`): self time by
// function and by where the code lives (our src, each node_modules package, node internals, GC,
// idle), so docs/benchmarks.md can say where an API request's CPU goes.
//   npx tsx scripts/bench/profile-summary.ts DIR_OR_FILE [--top 30]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function where(url: string, fn: string): string {
  if (fn === '(garbage collector)' || fn === '(idle)' || fn === '(program)') return fn;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  if (url.includes('/dist/') || url.includes('/src/'))
    return `ours: ${url.replace(/^.*\/(dist|src)\//, '')}`;
  return url === '' ? '(native)' : url;
}

function summarise(file: string, top: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
  const busy = total - idle.reduce((a, [, t]) => a + t, 0);
  const fnTime = new Map<string, number>();
  const placeTime = new Map<string, number>();
  for (const [id, t] of self) {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === '(idle)') continue;
    const place = where(n.callFrame.url, n.callFrame.functionName);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${place}:${n.callFrame.lineNumber + 1}`;
    fnTime.set(fn, (fnTime.get(fn) ?? 0) + t);
    placeTime.set(place, (placeTime.get(place) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
  console.log(`\n${file}: ${(busy / 1e6).toFixed(2)} s busy of ${(total / 1e6).toFixed(2)} s`);
  console.log('\nby place (self time, share of busy):');
  for (const [p, t] of [...placeTime].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(t).padStart(6)}  ${p}`);
  console.log('\nby function:');
  for (const [f, t] of [...fnTime].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(t).padStart(6)}  ${f}`);
}

const target = process.argv[2];
if (!target) throw new Error('usage: profile-summary.ts DIR_OR_FILE [--top N]');
const topIndex = process.argv.indexOf('--top');
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 30;
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];
for (const f of files) summarise(f, top);
