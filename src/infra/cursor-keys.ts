import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger';

const LOCAL_KEYS_FILE = path.resolve(__dirname, '../../.cache/cursor-signing-keys');

/**
 * CURSOR_SIGNING_KEYS comes from configuration. For a local run without it, a random key is made
 * once and kept (mode 0600) in the checkout's ignored .cache, so cursors survive restarts.
 */
export function cursorKeysSetting(configured: string | undefined, logger: Logger): string {
  if (configured) return configured;
  if (!existsSync(LOCAL_KEYS_FILE)) {
    mkdirSync(path.dirname(LOCAL_KEYS_FILE), { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    try {
      writeFileSync(LOCAL_KEYS_FILE, `local1=${secret}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process starting at the same moment wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  logger.warn('CURSOR_SIGNING_KEYS is not set; using the local development key', {
    file: LOCAL_KEYS_FILE,
  });
  return readFileSync(LOCAL_KEYS_FILE, 'utf8').trim();
}
