import { RECORD_TOKENS } from '../../src/domain/record-tokens';
import { measureRecordTokens } from '../../scripts/record-tokens';

// The token figures quoted to agents (/llms.txt, tool descriptions, docs/agents.md) stay within
// 10 % of a fresh measurement on the seed data.

it('the documented record and page sizes match the seed data', () => {
  const measured = measureRecordTokens();
  for (const part of ['record', 'page25'] as const) {
    for (const shape of ['whole', 'agentFields'] as const) {
      const documented = RECORD_TOKENS[part][shape];
      expect(Math.abs(measured[part][shape] - documented) / documented).toBeLessThan(0.1);
    }
  }
});
