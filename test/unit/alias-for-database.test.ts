import { aliasForDatabase } from '../../src/search/index-manager';

// contract §22.3: an index belongs to one database. Names that differed only in case or in
// characters an index name cannot hold shared one alias (`audit-s12`, `audit_s12`, `Audit_S12`),
// and two stores then filled one index, and rebuilt it, in turn.

it('keeps the alias of a name index names can hold as it was', () => {
  expect(aliasForDatabase('opportunities')).toBe('opportunities_opportunities');
  expect(aliasForDatabase('bench_1m')).toBe('opportunities_bench_1m');
});

it('gives names the mapping changes aliases of their own, valid as index names', () => {
  const names = ['audit_s12', 'audit-s12', 'Audit_S12', 'audit s12', 'audit.s12', 'AUDIT-S12'];
  const aliases = names.map(aliasForDatabase);
  expect(new Set(aliases).size).toBe(names.length);
  for (const alias of aliases) expect(alias).toMatch(/^opportunities_[a-z0-9_]+(-[0-9a-f]{8})?$/);
  expect(aliasForDatabase('audit-s12')).toBe(aliasForDatabase('audit-s12'));
  // One with a digest can never be a plain one's: those hold no `-`.
  expect(aliasForDatabase('audit-s12')).toMatch(/^opportunities_audit_s12-[0-9a-f]{8}$/);
});
