// What records cost an agent's context (contract §21.11), as documented in /llms.txt, the
// tool descriptions and docs/agents.md. Measured by scripts/record-tokens.ts on the seed data
// (`seed --count 1000 --seed 1`) as UTF-8 bytes / 4; test/unit/record-tokens.test.ts holds these
// figures to that measurement, so a change of the record shape that moves them fails a test.

/** The fields an agent typically needs to shortlist an opportunity. */
export const AGENT_FIELDS = [
  'id',
  'title',
  'employer',
  'rate',
  'location',
  'engagement_models',
  'canonical_url',
] as const;

/** Approximate tokens (bytes / 4), rounded. */
export const RECORD_TOKENS = {
  /** One record: whole, and with fields=AGENT_FIELDS. */
  record: { whole: 510, agentFields: 110 },
  /** The text block of a 25-record search page: whole records, and with fields=AGENT_FIELDS. */
  page25: { whole: 12_900, agentFields: 2_800 },
} as const;

/**
 * The result budget in force (MCP_MAX_RESULT_BYTES, contract §21.11) in words, for the MCP
 * instructions and /llms.txt: an agent plans its pages by this server's, not by the default. A
 * token is about four bytes of this JSON (the figures above: 25 whole records, about 51 KB).
 */
export const budgetInWords = (maxBytes: number) =>
  `${maxBytes.toLocaleString('en-US')} bytes on this server, about ` +
  `${Math.round(maxBytes / 4).toLocaleString('en-US')} tokens`;
