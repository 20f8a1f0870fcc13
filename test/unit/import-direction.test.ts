import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md: folders are layers, and an import only ever points down. Each
// folder of src/ (and each file directly in src/) is one unit with a rank; a unit may import only
// units of a lower rank, so no two folders import each other and REST and MCP stay apart.

const SRC = path.resolve(__dirname, '../../src');

/** Lower ranks first. Units of one rank never import each other (http and mcp, search and billing). */
const RANK: Record<string, number> = {
  domain: 0,
  infra: 1,
  seed: 1,
  store: 2,
  search: 3,
  billing: 3,
  config: 4,
  service: 5,
  adapter: 6,
  http: 7,
  mcp: 7,
  app: 8,
  bootstrap: 8,
  cli: 9,
  server: 9,
  main: 10,
};

function unitOf(file: string): string {
  const [first, second] = path.relative(SRC, file).split(path.sep);
  return second === undefined ? (first ?? '').replace(/\.ts$/, '') : (first ?? '');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative specifiers of import/export ... from '...' and import('...'). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from|import\()\s*'(\.[^']*)'/g)) if (m[1]) found.push(m[1]);
  return found;
}

const FILES = sourceFiles(SRC);

/** The file a relative specifier names: `x.ts`, `x/index.ts` for a folder, or a data file (.json). */
function resolveSpec(file: string, spec: string): string {
  const target = path.resolve(path.dirname(file), spec);
  if (/\.(ts|json)$/.test(target)) return target;
  const asFile = `${target}.ts`;
  return FILES.includes(asFile) ? asFile : path.join(target, 'index.ts');
}

const edges = FILES.flatMap((file) =>
  importsOf(file).map((spec) => {
    const target = resolveSpec(file, spec);
    return {
      file: path.relative(SRC, file),
      target: path.relative(SRC, target),
      from: unitOf(file),
      to: unitOf(target),
    };
  }),
);

/**
 * The import cycles between files (type-only imports included: they tie two files' meanings
 * together as much as a value import does), each as its files in sorted order, found as the
 * strongly connected components of more than one file (Tarjan).
 */
function fileCycles(): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.file, [...(next.get(e.file) ?? []), e.target]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of FILES.map((f) => path.relative(SRC, f))) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * Cycles known when the check was written, in files another change is rewriting; each entry is
 * removed when its cycle is broken (the test fails on a cycle not listed, and on a listed one that
 * is gone, so the list only shrinks).
 */
const KNOWN_CYCLES: string[][] = [];

it('every folder and top-level file of src has a rank', () => {
  const units = new Set(FILES.map(unitOf));
  expect([...units].filter((u) => RANK[u] === undefined)).toEqual([]);
});

it('imports point only to lower layers (no cycle between folders)', () => {
  const upward = edges
    .filter((e) => e.from !== e.to && (RANK[e.to] ?? 99) >= (RANK[e.from] ?? -1))
    .map((e) => `${e.file} -> ${e.to}`);
  expect(upward).toEqual([]);
});

it('no file imports itself back through others (no cycle inside a folder, type imports too)', () => {
  expect(fileCycles()).toEqual(KNOWN_CYCLES);
});

// The adapters reach Postgres, OpenSearch and Redis only through capabilities (app/compose.ts):
// neither a client library nor the type that carries the clients (service/context.ts Clients).
const ADAPTERS = ['adapter', 'http', 'mcp'];
const CLIENT_IMPORT = /from '(pg|ioredis|@opensearch-project\/opensearch)'|\b(AppDeps|Clients)\b/;

it('no adapter reaches a raw client', () => {
  const reaching = FILES.filter((f) => ADAPTERS.includes(unitOf(f)))
    .filter((f) => CLIENT_IMPORT.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(SRC, f));
  expect(reaching).toEqual([]);
});

it('finds the imports it checks (the walk is not vacuous)', () => {
  expect(edges.some((e) => e.from === 'http' && e.to === 'service')).toBe(true);
  expect(edges.some((e) => e.from === 'billing' && e.to === 'store')).toBe(true);
  // Every import resolves to a file of src (a cycle through a missed file would go unseen).
  const unresolved = edges.filter(
    (e) => !e.target.endsWith('.json') && !FILES.includes(path.join(SRC, e.target)),
  );
  expect(unresolved.map((e) => e.target)).toEqual([]);
});
