import { parseRestQuery } from '../../src/domain/filters';
import { buildCountBody, buildListSearchBody } from '../../src/search/query-builder';
import type { AppDeps } from '../../src/service/context';

// The keyword-search workloads of `npm run bench` (docs/benchmarks.md): 50 realistic
// queries of one to four words over the seed's vocabulary (titles from the taxonomy catalog,
// technologies, organizations), some phrases, some exclusions and ORs, some with filters; each as
// the REST query and as the same list and count bodies sent straight to OpenSearch.

const QUERIES: readonly string[] = [
  'python',
  'golang',
  'react',
  'java',
  'kubernetes',
  'snowflake',
  'data engineer',
  'senior python',
  'react developer',
  'devops engineer',
  'machine learning',
  'k8s',
  'js',
  'ml engineer',
  'cloud architect',
  'aws',
  'azure',
  'salesforce',
  'sap',
  'security',
  '"data engineer"',
  '"software engineer"',
  '"machine learning engineer"',
  '"project manager"',
  'senior golang k8s',
  'python -django',
  'java spring -junior',
  'react OR vue',
  'golang OR rust',
  'postgres OR mysql',
  'data -analyst',
  'backend node.js',
  'c++ developer',
  '.net developer',
  'ios developer',
  'android kotlin',
  'site reliability',
  'qa automation',
  'product designer',
  'scrum master',
  'lead engineer',
  'principal architect',
  'etl developer',
  'power bi',
  'tableau analyst',
  'network engineer',
  'typescript',
  'ai',
  'servicenow developer',
  'terraform aws',
];

const FILTERS: readonly Record<string, string>[] = [
  {},
  {},
  { remote: 'true' },
  { country: 'US' },
  { level: 'senior' },
];

export interface KeywordMix {
  /** The REST query string (q and maybe a filter). */
  query: string;
  list: object;
  relevance: object;
  count: object;
}

/** The 50 queries, each with a filter one time in five (or none), as REST and raw bodies. */
export function keywordMixes(deps: Pick<AppDeps, 'taxonomy'>): KeywordMix[] {
  const ctx = { taxonomy: deps.taxonomy, maxPageSize: 100 };
  return QUERIES.map((q, i) => {
    const query = { q, ...FILTERS[i % FILTERS.length] };
    const filter = parseRestQuery('count', query, ctx).filter;
    return {
      query: new URLSearchParams(query).toString(),
      list: buildListSearchBody(filter, deps.taxonomy, { size: 26 }),
      relevance: buildListSearchBody({ ...filter, sort: 'relevance' }, deps.taxonomy, {
        size: 26,
      }),
      count: buildCountBody(filter, deps.taxonomy),
    };
  });
}
