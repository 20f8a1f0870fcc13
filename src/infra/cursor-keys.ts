import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger';

const LOCAL_KEYS_FILE = path.resolve(__dirname, '../../.cache/cursor-signing-keys');

/**
 * CURSOR_SIGNING_KEYS comes from configuration. For a local run without it, a random key is made
 * once and kept (mode 0600) in the checkout's ignored .cache, so cursors survive restarts.
 */
export function cursorKeysSetting(
  configured: string | undefined,
  logger: Logger,
  file = LOCAL_KEYS_FILE,
): string {
  if (configured) return configured;
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    createWhole(file, `local1=${randomBytes(32).toString('base64url')}\n`);
  }
  logger.warn('CURSOR_SIGNING_KEYS is not set; using the local development key', { file });
  return readFileSync(file, 'utf8').trim();
}

/**
 * Creates `file` with `text` unless it exists, so that no reader ever sees it empty: several
 * processes start at once (API_PROCESSES, two local instances), and a file created and then
 * written could be read between the two. The text goes to a file of this process's own, linked
 * into place whole; the first link wins, and the others use its key.
 */
function createWhole(file: string, text: string): void {
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(own, text, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(own, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(own);
  }
}
