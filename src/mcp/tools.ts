import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { CountEnvelope, DetailEnvelope, ListEnvelope, TaxonomyEnvelope } from '../domain/envelopes';
import { ApiError, invalidFilter } from '../domain/errors';
import { checkOnlyParams, toolArgsSchema } from '../domain/filters';
import type { Settings } from '../service/context';
import type { Caller, Outcome, ReadService, Refused } from '../service/read-service';
import { taxonomyDocument } from '../service/taxonomy-service';
import { serializeOnce } from '../adapter/presenter';
import {
  COUNT_DESCRIPTION,
  GET_DESCRIPTION,
  ID_DESCRIPTION,
  searchDescription,
  TAXONOMY_DESCRIPTION,
  USAGE_DESCRIPTION,
} from './descriptions';
import { UsageEnvelope } from '../domain/usage-envelope';
import { once } from '../infra/once';
import { toolInputSchema, toolOutputSchema, type ToolJsonSchema } from './schemas';

// The four tools of contract §21.5, as thin adapters over the ReadService that REST uses, so that
// both surfaces share one ledger, one quota and one rate limit. Argument checking is the service's
// (parseToolArgs, same rules and codes as REST); the declared schemas only describe.

export type ToolName =
  | 'search_opportunities'
  | 'get_opportunity'
  | 'count_opportunities'
  | 'get_occupation_taxonomy'
  | 'get_usage';

/** A tool's answer: the read's outcome (its envelope or its error, with the headers of 8.3). */
export type ToolOutcome = Outcome<object>;

export interface ToolDefinition {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: ToolJsonSchema;
  outputSchema: ToolJsonSchema;
  annotations: ToolAnnotations;
  /** Spends the request id and may deliver opportunities (contract §17.2): list and detail. */
  billable: boolean;
  /**
   * Held to the rate limit by the ReadService, like its REST twin (contract §21.10); any other tool
   * call is counted when its POST is admitted (admission.ts).
   */
  limitedByService: boolean;
  /** The outcome (adapter/presenter.ts renders it); throws only an argument check's ApiError. */
  run(caller: Caller, args: Record<string, unknown>): Promise<ToolOutcome>;
}

/** contract §21.8: read-only, idempotent (repeats are free) and closed-world. */
const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** Same declaration as the REST path parameter (openapi.ts): a uuid string. */
const GetArgs = z.strictObject({
  id: z.string().meta({ format: 'uuid', description: ID_DESCRIPTION }),
  fields: toolArgsSchema('list').shape.fields,
});
const NoArgs = z.strictObject({});

/**
 * Tools whose arguments are not filters refuse unknown names like the filter parser does
 * (contract §6.3: unknown parameter → invalid_filter), so that a typo such as `opportunity_id`
 * is named instead of ignored.
 */
function onlyArgs(args: Record<string, unknown>, allowed: readonly string[]): void {
  checkOnlyParams(presentArgs(args), allowed);
}

/** A null argument counts as absent, as the filter arguments do, whatever its name. */
function presentArgs(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => value !== undefined && value !== null),
  );
}

/** onlyArgs for a call already counted against the rate limit: a refusal keeps its headers. */
function argumentsRefused(
  args: Record<string, unknown>,
  allowed: readonly string[],
  headers: Record<string, string>,
): Refused | null {
  try {
    onlyArgs(args, allowed);
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, error: err, headers };
  }
}

/**
 * contract §21.11: a tool result's text stays within the result budget. A count is small unless it
 * is grouped (two dimensions at group_limit 100 may hold 10,000 buckets, several hundred KB an
 * agent would pay for in tokens), or carries a histogram (up to 400 buckets) or rate statistics
 * under a budget set low. Such an answer is refused, naming the argument that made it large,
 * rather than cut: a cut count would be a wrong one. Counts are free: nothing is lost but the call.
 */
function countWithinBudget(outcome: Outcome<CountEnvelope>, maxBytes: number): ToolOutcome {
  if (!outcome.ok) return outcome;
  const { groups, histogram, rate_stats: stats } = outcome.body;
  if (groups === undefined && histogram === undefined && stats === undefined) return outcome;
  const bytes = Buffer.byteLength(JSON.stringify(outcome.body));
  if (bytes <= maxBytes) return outcome;
  // The part that takes the most bytes is the one to shrink: a wide daily histogram beside a
  // grouping of three buckets used to be refused naming group_limit, advice that could not help.
  const parts = [
    {
      parameter: 'group_limit',
      part: groups,
      advice: 'lower group_limit, or group by one dimension',
    },
    {
      parameter: 'interval',
      part: histogram,
      advice: 'take a longer interval, or a shorter span of dates',
    },
    { parameter: 'stats', part: stats, advice: 'narrow the filters, or leave stats out' },
  ]
    .filter(({ part }) => part !== undefined)
    .map((entry) => ({ ...entry, bytes: JSON.stringify(entry.part).length }));
  const { parameter, advice } = parts.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const error = invalidFilter(
    parameter,
    'out_of_range',
    `This answer would take ${bytes} bytes, over this server's result budget of ${maxBytes} ` +
      `(MCP_MAX_RESULT_BYTES): ${advice}.`,
  );
  return { ok: false, error, headers: outcome.headers };
}

/**
 * The service names the uuid `opportunity_id` (the REST path parameter); the tool's argument is
 * `id`, and the envelope should name what the agent sent.
 */
function renameIdParameter<T>(outcome: Outcome<T>): Outcome<T> {
  const err = outcome.ok ? undefined : outcome.error;
  // The id's own error only (a bad id, a key pasted as the id included: both validation errors):
  // an unknown argument that happens to be named opportunity_id is named as sent.
  if (outcome.ok || err?.details?.parameter !== 'opportunity_id' || err.code !== 'validation_error')
    return outcome;
  const renamed = new ApiError(
    err.code,
    err.message.replace('opportunity_id', 'id'),
    { ...err.details, parameter: 'id' },
    err.retryAfter,
  );
  return { ...outcome, error: renamed };
}

/**
 * The tools' declared JSON Schemas, generated from constant zod schemas: once per process, when the
 * first router is built, however many apps the process assembles (a test file may assemble many).
 */
const declaredSchemas = once(() => {
  const io = (args: z.ZodType, result: z.ZodType) => ({
    inputSchema: toolInputSchema(args),
    outputSchema: toolOutputSchema(result),
  });
  return {
    search_opportunities: io(toolArgsSchema('list'), ListEnvelope),
    get_opportunity: io(GetArgs, DetailEnvelope),
    count_opportunities: io(toolArgsSchema('count'), CountEnvelope),
    get_occupation_taxonomy: io(NoArgs, TaxonomyEnvelope),
    get_usage: io(NoArgs, UsageEnvelope),
  } satisfies Record<ToolName, { inputSchema: ToolJsonSchema; outputSchema: ToolJsonSchema }>;
});

/** Built once per router: the taxonomy document does not change per request. */
export function createTools(deps: Settings, reads: ReadService): readonly ToolDefinition[] {
  const taxonomy = serializeOnce(taxonomyDocument(deps.taxonomy).body);
  const budget = { maxBytes: deps.env.MCP_MAX_RESULT_BYTES };
  const schemas = declaredSchemas();
  return [
    {
      name: 'search_opportunities',
      title: 'Search opportunities',
      description: searchDescription(budget.maxBytes),
      ...schemas.search_opportunities,
      annotations: { title: 'Search opportunities', ...READ_ONLY },
      billable: true,
      limitedByService: true,
      // contract §21.11: the page stops before the record that would pass the result budget.
      run: (caller, args) => reads.list(caller, { from: 'tool', args }, undefined, budget),
    },
    {
      name: 'get_opportunity',
      title: 'Get one opportunity',
      description: GET_DESCRIPTION,
      ...schemas.get_opportunity,
      annotations: { title: 'Get one opportunity', ...READ_ONLY },
      billable: true,
      limitedByService: true,
      run: async (caller, args) => {
        // The service checks the other arguments' names, as it checks the detail URL's query: an
        // unknown one is a read refused, counted and spending its request id (contract §17.2).
        const { id, ...rest } = presentArgs(args);
        const options =
          Object.keys(rest).length === 0 ? undefined : ({ from: 'tool', args: rest } as const);
        return renameIdParameter(await reads.detail(caller, id, options));
      },
    },
    {
      name: 'count_opportunities',
      title: 'Count opportunities',
      description: COUNT_DESCRIPTION,
      ...schemas.count_opportunities,
      annotations: { title: 'Count opportunities', ...READ_ONLY },
      billable: false,
      limitedByService: true,
      run: async (caller, args) =>
        countWithinBudget(await reads.count(caller, { from: 'tool', args }), budget.maxBytes),
    },
    {
      name: 'get_occupation_taxonomy',
      title: 'Occupation taxonomy',
      description: TAXONOMY_DESCRIPTION,
      ...schemas.get_occupation_taxonomy,
      annotations: { title: 'Occupation taxonomy', ...READ_ONLY },
      billable: false,
      limitedByService: true,
      // Like GET /v1/taxonomy/occupations: no quota. Unlike it, the call counts against the rate
      // limit (contract §21.10), and a call over it is a tool error like every other tool's
      // (contract §21.5), not an HTTP 429 for the whole POST.
      // Counted before its arguments are checked: a call with a bad one is a call all the same.
      run: async (caller, args) => {
        const admitted = await reads.admitProtocolMessage(caller, true);
        if (!admitted.ok) return admitted;
        const refused = argumentsRefused(args, [], admitted.headers);
        return refused ?? { ok: true, body: taxonomy, headers: admitted.headers };
      },
    },
    {
      name: 'get_usage',
      title: 'Account usage',
      description: USAGE_DESCRIPTION,
      ...schemas.get_usage,
      annotations: { title: 'Account usage', ...READ_ONLY },
      billable: false,
      limitedByService: true,
      // contract §5.7: like GET /v1/usage: free, no request id spent, counted by the rate limit,
      // which the service checks before the arguments, as it checks the REST query's names.
      run: (caller, args) => reads.accountUsage(caller, presentArgs(args)),
    },
  ];
}
