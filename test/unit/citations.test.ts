import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Comments cite docs/contract.md as `contract §N` or `contract §N.M` (contract §1, "Citing"). The
// two documents that used to live outside the repository (`contract N`, `decisions N`) and the
// issue tracker (`issue N`) are not in the repository: a newcomer cannot open them, so src/ never
// cites them. docs/contract.md's Appendix A maps the old numbers.

const SRC = path.resolve(__dirname, '../../src');

/** An old citation: a bare number after `decisions`, `contract` (no §) or `issue(s)`. */
const OLD = /\b(decisions|contract|issues?) #?\d/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mjs|cjs|json|sql|sh|html|css|txt|md)$/.test(entry.name) ? [full] : [];
  });
}

it('cites docs/contract.md by section, never decisions N, contract N or issue N', () => {
  const old = sourceFiles(SRC).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        OLD.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
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
