import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cursorKeysSetting } from '../../src/infra/cursor-keys';

// The local development key file: made once, whole, and shared by every process that starts at
// the same moment (API_PROCESSES, two local instances).

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursor-keys-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('makes a key once (mode 0600) and reuses it, leaving no other file behind', () => {
  const file = path.join(dir, 'keys');
  const first = cursorKeysSetting(undefined, quiet, file);
  expect(first).toMatch(/^local1=[A-Za-z0-9_-]{43}$/);
  expect(cursorKeysSetting(undefined, quiet, file)).toBe(first);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readdirSync(dir)).toEqual(['keys']);
});

it('never writes the key file in place: a process reading it at any moment sees it whole', () => {
  const file = path.join(dir, 'keys');
  const written: string[] = [];
  const write = fs.writeFileSync;
  jest.spyOn(fs, 'writeFileSync').mockImplementation((target, ...rest) => {
    written.push(String(target));
    // What a process starting now would read: nothing, or the whole key.
    if (fs.existsSync(file)) expect(fs.readFileSync(file, 'utf8')).toMatch(/^local1=/);
    return write(target, ...rest);
  });
  cursorKeysSetting(undefined, quiet, file);
  expect(written.length).toBeGreaterThan(0);
  expect(written).not.toContain(file);
});

it('uses the key of a process that linked its file first, and removes its own', () => {
  const file = path.join(dir, 'keys');
  const link = fs.linkSync;
  jest.spyOn(fs, 'linkSync').mockImplementation((from, to) => {
    // Another process wins the race between our existence check and our link.
    fs.writeFileSync(file, 'local1=theirs\n', { mode: 0o600 });
    return link(from, to);
  });
  expect(cursorKeysSetting(undefined, quiet, file)).toBe('local1=theirs');
  expect(fs.readdirSync(dir)).toEqual(['keys']);
});

it('a configured setting wins and touches no file', () => {
  const file = path.join(dir, 'keys');
  expect(cursorKeysSetting('k1=abc', quiet, file)).toBe('k1=abc');
  expect(fs.existsSync(file)).toBe(false);
});
