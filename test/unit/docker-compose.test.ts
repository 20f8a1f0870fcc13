import { readFileSync } from 'node:fs';
import path from 'node:path';

// contract §22.3: docker-compose.yml ships no usable default secret and publishes its
// services on loopback only.
const compose = readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8');

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
