import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Comments cite docs/contract.md as `contract §N` or `contract §N.M` (contract §1, "Citing"). The
// two documents that used to live outside the repository (`contract N`, `decisions N`) and the
// issue tracker (`issue N`) are not in the repository: a newcomer cannot open them, so the code
// never cites them: src/, the tests, the scripts, the migrations, the index's files, the client and
// the build and CI files. docs/contract.md's Appendix A maps the old numbers; docs/ itself may name
// them (that appendix does).

const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['src', 'test', 'scripts', 'migrations', 'index-mappings', 'clients', '.ci'];
const ROOT_FILES = [
  'Dockerfile',
  'docker-compose.yml',
  'jest.config.js',
  'eslint.config.mjs',
  '.env.example',
  'package.json',
];
/** This file, whose examples are the old forms. */
const SELF = path.relative(ROOT, __filename);

/** An old citation: a bare number after `decisions`, `contract` (no §) or `issue(s)`. */
const OLD = /\b(decisions|contract|issues?) #?\d/i;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    return [full];
  });
}

const ownFiles = (): string[] => [
  ...FOLDERS.flatMap((folder) => files(path.join(ROOT, folder))),
  ...ROOT_FILES.map((name) => path.join(ROOT, name)),
];

it('cites docs/contract.md by section, never decisions N, contract N or issue N', () => {
  const old = ownFiles()
    .filter((file) => path.relative(ROOT, file) !== SELF)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          OLD.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  // On failure: rewrite each line with docs/contract.md's Appendix A (`contract §N.M`), or say
  // the reason the issue stood for.
  expect(old).toEqual([]);
});

it('recognizes the old forms and not the new one', () => {
  expect(
    ['decisions 7', 'Contract 8.3', 'contract 4.1-4.3', 'issue 13', 'issues 22, 24'].map((s) =>
      OLD.test(s),
    ),
  ).toEqual([true, true, true, true, true]);
  expect(
    ['contract §16.4', 'contract §8.2, §8.4', 'the contract', 'an issue'].map((s) => OLD.test(s)),
  ).toEqual([false, false, false, false]);
});
