import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A folder of the test file's own under the system's temporary folder, removed after its tests
 * (each run left its NDJSON files behind: hundreds of folders in /tmp). Call it at a file's top
 * level: it adds an afterAll.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
