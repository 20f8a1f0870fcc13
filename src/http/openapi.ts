import {
  CountEnvelope,
  HistogramBucket,
  RateStatistics,
  DetailEnvelope,
  ErrorEnvelope,
  ListEnvelope,
  PreviewListEnvelope,
  TaxonomyEnvelope,
  TaxonomyNodeSchema,
} from '../domain/envelopes';
import { ChangesEnvelope, Tombstone } from '../domain/changes-envelope';
import { UsageEnvelope } from '../domain/usage-envelope';
import { Opportunity, PreviewOpportunity, SparseOpportunity } from '../domain/record';
import { OPENAPI_INTRO } from './openapi-intro';
import { HEADER_COMPONENTS } from './openapi-parts';
import { componentSchemas } from './openapi-schemas';
import { OPERATIONS, TAGS, type Operation } from './operations';

// OpenAPI 3.1 (contract §5.8), served at GET /v1/openapi.json. Its paths are the route declarations
// that the routers mount (http/operations.ts); its parameters come from the zod schemas that the
// filter catalog generates beside its parser (domain/filters), its responses and components from
// the zod schemas that type the envelopes.

/** Every documented operation, from its one declaration (http/operations.ts). */
function documentedPaths(): Record<string, Record<string, object>> {
  const paths: Record<string, Record<string, object>> = {};
  for (const [operationId, op] of Object.entries(OPERATIONS) as [string, Operation][]) {
    const { method, path, public: open, parameters: declared, ...texts } = op;
    const { responses, ...described } = texts;
    const parameters = declared?.();
    paths[path] = {
      ...paths[path],
      [method]: {
        operationId,
        ...described,
        ...(open ? { security: [] } : {}),
        ...(parameters?.length ? { parameters } : {}),
        responses,
      },
    };
  }
  return paths;
}

export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Technology Contract Opportunity Read API',
      version: '1.0.0-beta.1',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: OPENAPI_INTRO,
    },
    // The groups of /docs, in the order a newcomer needs them.
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    servers: [{ url: '/' }],
    security: [{ ApiKeyHeader: [] }],
    paths: documentedPaths(),
    components: {
      securitySchemes: {
        // /mcp also takes the key as a bearer token; it is no operation of this document, so no
        // scheme here describes that (an unused scheme is a Redocly warning).
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The API key (see "Get a key" above). Never in a URL.',
        },
      },
      headers: HEADER_COMPONENTS,
      // contract §5.8.1: named components, referenced by $ref wherever they are reused.
      schemas: componentSchemas({
        Opportunity,
        SparseOpportunity,
        PreviewOpportunity,
        ListEnvelope,
        PreviewListEnvelope,
        CountEnvelope,
        HistogramBucket,
        RateStatistics,
        ChangesEnvelope,
        Tombstone,
        DetailEnvelope,
        TaxonomyNode: TaxonomyNodeSchema,
        Taxonomy: TaxonomyEnvelope,
        ErrorEnvelope,
        Usage: UsageEnvelope,
      }),
    },
  };
}
