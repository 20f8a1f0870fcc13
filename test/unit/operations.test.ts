import { buildOpenApiDocument } from '../../src/http/openapi';
import { OPERATIONS, expressPath } from '../../src/http/operations';

// http/operations.ts: each operation declared once; the document's paths are these declarations.

interface Doc {
  paths: Record<
    string,
    Record<string, { operationId: string; responses: Record<string, { description: string }> }>
  >;
}
const doc = buildOpenApiDocument() as unknown as Doc;

it('the document has exactly the declared operations, at their paths and methods', () => {
  const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => `${op.operationId} ${method} ${path}`),
  );
  const declared = Object.entries(OPERATIONS).map(([id, op]) => `${id} ${op.method} ${op.path}`);
  expect(documented.sort()).toEqual(declared.sort());
});

it('express reads the same path, with its parameters in express syntax', () => {
  expect(expressPath(OPERATIONS.getOpportunity.path)).toBe('/v1/opportunities/:opportunity_id');
  expect(expressPath(OPERATIONS.listOpportunities.path)).toBe('/v1/opportunities');
});

it('an error response lists the codes of its status from the closed list', () => {
  const responses = doc.paths['/v1/opportunities']?.get?.responses ?? {};
  expect(responses['403']?.description).toBe(
    'api_access_disabled, api_access_suspended, plan_access_pending or plan_access_expired',
  );
  expect(responses['503']?.description).toBe(
    'metering_unavailable or search_unavailable (with Retry-After)',
  );
  const preview = doc.paths['/v1/preview/opportunities']?.get?.responses ?? {};
  expect(preview['429']?.description).toBe('preview_rate_limit_exceeded (with Retry-After)');
});
