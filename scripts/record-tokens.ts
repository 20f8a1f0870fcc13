// How many tokens a record, and a 25-record search page, cost an agent (contract §21.11),
// with and without `fields`, measured on the seed data: `seed --count 1000 --seed 1`, generated
// in memory. Tokens are estimated as UTF-8 bytes / 4 (the usual rule of thumb for JSON with
// English text; a real tokenizer gives within about 20 % of it). A page is the list envelope
// as search_opportunities' text block carries it (structuredContent carries the same again).
// Run: npx tsx scripts/record-tokens.ts   (figures quoted in docs/agents.md and /llms.txt;
// test/unit/record-tokens.test.ts holds those figures to this measurement).
import { loadTaxonomyCatalog, taxonomyFromCatalog } from '../src/domain/taxonomy/catalog';
import { recordShaper } from '../src/service/shaped-records';
import type { Opportunity } from '../src/domain/record';
import { AGENT_FIELDS } from '../src/domain/record-tokens';
import { generateOpportunities } from '../src/seed/generate';
import { listEnvelope } from '../src/service/envelopes';
import { listJson } from '../src/service/list-json';

const SAMPLE = 1000;
const PAGE = 25;
/** A cursor as long as the service's (a compact JWS over a short payload). */
const CURSOR = 'x'.repeat(330);

const tokens = (bytes: number) => Math.round(bytes / 4);
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

export interface RecordTokens {
  record: { whole: number; agentFields: number };
  page25: { whole: number; agentFields: number };
}

export function measureRecordTokens(): RecordTokens {
  const catalog = loadTaxonomyCatalog();
  const records: Opportunity[] = [
    ...generateOpportunities({
      count: SAMPLE,
      seed: 1,
      taxonomy: taxonomyFromCatalog(catalog),
      catalog,
    }),
  ];
  const average = (fields?: readonly string[]) =>
    recordShaper(fields)(records).reduce((sum, r) => sum + bytesOf(r), 0) / records.length;
  const page = (fields?: readonly string[]) => {
    let total = 0;
    const pages = Math.floor(records.length / PAGE);
    for (let p = 0; p < pages; p++) {
      const slice = recordShaper(fields)(records.slice(p * PAGE, (p + 1) * PAGE));
      const body = listEnvelope(slice, CURSOR, PAGE, 'f0f0f0f0-0000-4000-8000-000000000000', {});
      total += Buffer.byteLength(listJson(body), 'utf8');
    }
    return total / pages;
  };
  return {
    record: { whole: tokens(average()), agentFields: tokens(average(AGENT_FIELDS)) },
    page25: { whole: tokens(page()), agentFields: tokens(page(AGENT_FIELDS)) },
  };
}

if (require.main === module) {
  console.log(JSON.stringify(measureRecordTokens(), null, 2));
}
