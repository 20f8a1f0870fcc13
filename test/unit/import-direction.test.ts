import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// issue 12, docs/architecture.md: folders are layers, and an import only ever points down. Each
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
  main: 9,
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

const edges = sourceFiles(SRC).flatMap((file) =>
  importsOf(file).map((spec) => ({
    file: path.relative(SRC, file),
    from: unitOf(file),
    to: unitOf(path.resolve(path.dirname(file), spec)),
  })),
);

it('every folder and top-level file of src has a rank', () => {
  const units = new Set(sourceFiles(SRC).map(unitOf));
  expect([...units].filter((u) => RANK[u] === undefined)).toEqual([]);
});

it('imports point only to lower layers (no cycle between folders)', () => {
  const upward = edges
    .filter((e) => e.from !== e.to && (RANK[e.to] ?? 99) >= (RANK[e.from] ?? -1))
    .map((e) => `${e.file} -> ${e.to}`);
  expect(upward).toEqual([]);
});

it('finds the imports it checks (the walk is not vacuous)', () => {
  expect(edges.some((e) => e.from === 'http' && e.to === 'service')).toBe(true);
  expect(edges.some((e) => e.from === 'billing' && e.to === 'store')).toBe(true);
});
