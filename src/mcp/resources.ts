import {
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  type Server,
} from '@modelcontextprotocol/server';
import type { TaxonomyEnvelope } from '../domain/envelopes';
import { refuseCursor, unknownName } from './protocol-errors';

// MCP resources (contract §21.5): the occupational taxonomy as
// `taxonomy://occupations`, application/json, the same envelope as GET /v1/taxonomy/occupations
// and get_occupation_taxonomy. Free: reading it spends nothing and is not rate limited, like
// the other protocol messages.

export const TAXONOMY_RESOURCE_URI = 'taxonomy://occupations';

/** The taxonomy resource as served: its text serialised once per process, not once per request. */
export interface TaxonomyResource {
  version: string;
  text: string;
}

export function taxonomyResource(taxonomy: TaxonomyEnvelope): TaxonomyResource {
  return { version: taxonomy.version, text: JSON.stringify(taxonomy) };
}

export function registerResources(server: Server, taxonomy: TaxonomyResource): void {
  const { text } = taxonomy;
  server.setRequestHandler('resources/list', (request): ListResourcesResult => {
    refuseCursor(request.params);
    return {
      resources: [
        {
          uri: TAXONOMY_RESOURCE_URI,
          name: 'occupations',
          title: 'Occupational taxonomy',
          description: `Taxonomy ${taxonomy.version}: the ids that job_domain, job_family, job_subfamily and job_class filters take (never labels); a family matches its descendants.`,
          mimeType: 'application/json',
        },
      ],
    };
  });
  // The resources capability's third method: there are no templates, and a client that lists them
  // on connecting (the Inspector, the 1.x SDK's listResourceTemplates) gets an empty list, not
  // -32601 Method not found.
  server.setRequestHandler('resources/templates/list', (request): ListResourceTemplatesResult => {
    refuseCursor(request.params);
    return { resourceTemplates: [] };
  });
  server.setRequestHandler('resources/read', (request): ReadResourceResult => {
    if (request.params.uri !== TAXONOMY_RESOURCE_URI)
      throw unknownName('resource', request.params.uri);
    return {
      contents: [{ uri: TAXONOMY_RESOURCE_URI, mimeType: 'application/json', text }],
    };
  });
}
