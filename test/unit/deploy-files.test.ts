import { readFileSync } from 'node:fs';
import path from 'node:path';

// The deployment files agree with each other: one OpenSearch version for the
// compose stack and the local script, and an image that runs the build in production mode as an
// unprivileged user. (No Docker engine here: the image itself is built by CI only where
// `docker info` answers.)

const read = (file: string) => readFileSync(path.join(__dirname, '..', '..', file), 'utf8');

it('docker-compose pins the same OpenSearch version as scripts/opensearch-local.sh', () => {
  const script = read('scripts/opensearch-local.sh').match(/^VERSION_3="([\d.]+)"/m)?.[1];
  const compose = read('docker-compose.yml').match(/opensearchproject\/opensearch:([\d.]+)/)?.[1];
  expect(script).toMatch(/^\d+\.\d+\.\d+$/);
  expect(compose).toBe(script);
});

it('the Dockerfile builds in one stage and runs dist/ with production dependencies only', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  expect(stages).toHaveLength(2);
  const runtime = stages[1] ?? '';
  expect(runtime).toMatch(/^node:\d+-slim /);
  expect(runtime).toMatch(/npm ci --omit=dev/);
  expect(runtime).toMatch(/NODE_ENV=production/);
  expect(runtime).toMatch(/^USER node$/m);
  expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*?\/readyz/m);
  // The image runs exactly `npm run start:prod`'s command (its node flags included). The script
  // execs node so that a signal sent to npm reaches the server, not only npm's shell.
  const startProd = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
    .scripts['start:prod'];
  expect(startProd).toMatch(/^exec node (--[\w-]+=\S+ )*dist\/main\.js$/);
  const command = (startProd ?? '').replace(/^exec /, '');
  const cmd = `CMD ${JSON.stringify(command.split(' ')).replace(/","/g, '", "')}`;
  expect(runtime.split('\n')).toContain(cmd);
  expect(runtime).not.toMatch(/tsx/);
  expect(read('docker-compose.yml')).toMatch(/^ {4}build: \.$/m);
});

// The supply chain of the image.
it('the image installs no dev tool and runs no install script; Scarf analytics are off', () => {
  const pkg = JSON.parse(read('package.json')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    scarfSettings?: { enabled?: boolean };
  };
  // npm start (development) runs src/ through tsx; the image runs dist/ with node.
  expect(pkg.dependencies.tsx).toBeUndefined();
  expect(pkg.devDependencies.tsx).toBeDefined();
  // swagger-ui-dist depends on @scarf/scarf, whose postinstall reports the install unless the root
  // package says no (its documented setting).
  expect(pkg.scarfSettings?.enabled).toBe(false);
  const runtime = read('Dockerfile').split(/^FROM /m)[2] ?? '';
  expect(runtime).toMatch(/npm ci --omit=dev --ignore-scripts/);
});

// A checkout's install (docs/operations.md, Supply chain): every dependency the lock file says has
// an install script is allowed or denied by name in package.json, and only esbuild is allowed.
// npm 12 skips any script not allowed there, and npm 11 warns about each; a dependency that gains
// a script fails this until someone decides.
it('every install script of the lock file is decided in allowScripts; only esbuild runs', () => {
  const pkg = JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts).toContain('esbuild');
  const decided = pkg.allowScripts ?? {};
  expect(withScripts.filter((name) => !(name in decided))).toEqual([]);
  expect(Object.keys(decided).filter((name) => decided[name] === true)).toEqual(['esbuild']);
});
