import { readFileSync } from 'node:fs';
import path from 'node:path';

// contract §22.3: docker-compose.yml ships no usable default secret and publishes its
// services on loopback only.
const ROOT = path.resolve(__dirname, '../..');
const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');

it('publishes every port on 127.0.0.1 only', () => {
  const ports = [...compose.matchAll(/ports:\s*\[([^\]]*)\]/g)].flatMap((m) =>
    (m[1] ?? '').split(',').map((p) => p.trim().replace(/'/g, '')),
  );
  expect(ports.length).toBeGreaterThanOrEqual(4);
  for (const p of ports) expect(p).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
});

it('has no default for a secret: CURSOR_SIGNING_KEYS and the database password must be set', () => {
  expect(compose).not.toMatch(/\$\{[A-Z_]+:-/);
  expect(compose).toContain('${CURSOR_SIGNING_KEYS:?');
  expect(compose).toContain('${POSTGRES_PASSWORD:?');
  expect(compose).not.toMatch(/POSTGRES_HOST_AUTH_METHOD:\s*trust/);
  expect(compose).toMatch(/NODE_ENV:\s*production/);
});

// The Docker path of the suite (test/support/containers.ts) runs the images the compose stack
// runs, and the engine the local script fetches: its OpenSearch was 3.3.0 against 3.8.0.
it('the test containers use the images of docker-compose.yml, and the engine the local script runs', () => {
  const images = [...compose.matchAll(/^\s*image:\s*(\S+)\s*$/gm)].map((m) => m[1] ?? '');
  const containers = readFileSync(path.join(ROOT, 'test/support/containers.ts'), 'utf8');
  const used = [...containers.matchAll(/Container\('([^']+)'\)/g)].map((m) => m[1] ?? '');
  expect(used.length).toBe(3);
  for (const image of used) expect(images).toContain(image);
  const script = readFileSync(path.join(ROOT, 'scripts/opensearch-local.sh'), 'utf8');
  const local = /^VERSION_3="([^"]+)"/m.exec(script)?.[1];
  expect(used).toContain(`opensearchproject/opensearch:${local}`);
});
