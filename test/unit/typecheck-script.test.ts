import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../support/scratch-dir';

// scripts/typecheck.sh runs tsc in build mode, whose up-to-date check sees neither node_modules nor
// imported JSON; the script keeps the last check only while both are as they were. Here a stand-in
// tsc reports whether the check's build info was still there when it was called.

const SCRIPT = path.resolve(__dirname, '../../scripts/typecheck.sh');
const BUILD_INFO = '.cache/tsc/typecheck/tsconfig.tsbuildinfo';

const scratch = scratchDir('typecheck-script-');

function project(): string {
  const dir = mkdtempSync(path.join(scratch, 'project-'));
  mkdirSync(path.join(dir, 'scripts'));
  copyFileSync(SCRIPT, path.join(dir, 'scripts/typecheck.sh'));
  for (const folder of ['src', 'test', 'scripts', 'clients', 'node_modules/.bin']) {
    mkdirSync(path.join(dir, folder), { recursive: true });
  }
  writeFileSync(path.join(dir, 'node_modules/.package-lock.json'), '{"lockfileVersion":3}\n');
  writeFileSync(path.join(dir, 'src/catalog.json'), '{"v":1}\n');
  const tsc = path.join(dir, 'node_modules/.bin/tsc');
  writeFileSync(
    tsc,
    `#!/usr/bin/env bash
if [[ -f ${BUILD_INFO} ]]; then echo "kept $*"; else echo "fresh $*"; fi
mkdir -p "$(dirname ${BUILD_INFO})" && touch ${BUILD_INFO}
exit "\${FAKE_TSC_STATUS:-0}"
`,
  );
  chmodSync(tsc, 0o755);
  return dir;
}

function typecheck(dir: string, status = 0): { stdout: string; status: number | null } {
  const run = spawnSync('bash', ['scripts/typecheck.sh'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, FAKE_TSC_STATUS: String(status) },
  });
  return { stdout: run.stdout.trim(), status: run.status };
}

describe('npm run typecheck (scripts/typecheck.sh)', () => {
  it('runs tsc in build mode over tsconfig.typecheck.json, keeping the last check while nothing it cannot see changed', () => {
    const dir = project();
    expect(typecheck(dir)).toEqual({ stdout: 'fresh -b tsconfig.typecheck.json', status: 0 });
    expect(typecheck(dir).stdout).toBe('kept -b tsconfig.typecheck.json');
  });

  it('checks everything again once the installed tree changed', () => {
    const dir = project();
    typecheck(dir);
    writeFileSync(
      path.join(dir, 'node_modules/.package-lock.json'),
      '{"lockfileVersion":3,"x":1}\n',
    );
    expect(typecheck(dir).stdout).toBe('fresh -b tsconfig.typecheck.json');
    expect(typecheck(dir).stdout).toBe('kept -b tsconfig.typecheck.json');
  });

  it('checks everything again once a JSON file the code may import changed', () => {
    const dir = project();
    typecheck(dir);
    const json = path.join(dir, 'src/catalog.json');
    writeFileSync(json, readFileSync(json, 'utf8').replace('1', '2'));
    expect(typecheck(dir).stdout).toBe('fresh -b tsconfig.typecheck.json');
  });

  it('fails as tsc fails', () => {
    expect(typecheck(project(), 2).status).toBe(2);
  });
});
