import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { createTestContext, type TestContext } from '../support/harness';
import { get, newReader, type Reader } from '../support/read-http';

// Schemathesis's "rejected a schema-compliant request" check, reproduced. For a
// query parameter value, two verdicts: the served document's schema for that parameter (the value
// deserialized as an OpenAPI client or gateway would: integers, booleans, comma lists with
// style: form, explode: false), and the service's answer (2xx accepted, 400/422 rejected). They
// must agree, both ways. The exceptions, each a direction the schema cannot know:
// - taxonomy ids: the schema says what an id looks like, GET /v1/taxonomy/occupations which exist;
// - cursors: opaque and signed (not tested here);
// - leniency: the service trims surrounding whitespace and takes lower-case country codes, which
//   the schema leaves out (a schema-valid value is still never refused);
// - sort=relevance needs q (contract §7.5), a rule between two parameters that a parameter's
//   schema cannot state: alone, it is refused by the service only;
// - partners: histogram and interval are only taken together (contract §10.4), a dependency between
//   parameters that OpenAPI cannot state; each is judged with a valid partner beside it.
// The account has page size 100, so limit's maximum is the document's.

interface Param {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  schema: Schema;
}
interface Schema {
  type?: string;
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: Schema;
}

const ENDPOINTS = [
  { path: '/v1/opportunities', keyed: true },
  { path: '/v1/opportunities/count', keyed: true },
  { path: '/v1/opportunities/changes', keyed: true },
  { path: '/v1/preview/opportunities', keyed: false },
] as const;
type Path = (typeof ENDPOINTS)[number]['path'];

let ctx: TestContext;
let reader: Reader;
let params: Record<Path, Param[]>;
/** Taxonomy ids by level, from the service's own taxonomy. */
let ids: Record<string, string[]>;
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
const validators = new Map<Schema, ValidateFunction>();

beforeAll(async () => {
  ctx = await createTestContext({ PREVIEW_REQUESTS_PER_MINUTE: '1000000' });
  reader = await newReader(ctx.deps);
  const doc = (await get(ctx.baseUrl, '/v1/openapi.json')).body as {
    paths: Record<string, { get: { parameters?: Param[] } }>;
  };
  params = Object.fromEntries(
    ENDPOINTS.map(({ path }) => [
      path,
      (doc.paths[path]?.get.parameters ?? []).filter((p) => p.in === 'query'),
    ]),
  ) as Record<Path, Param[]>;
  const taxonomy = (await get(ctx.baseUrl, '/v1/taxonomy/occupations')).body as {
    nodes: { id: string; level: string }[];
  };
  ids = {};
  for (const node of taxonomy.nodes) (ids[node.level] ??= []).push(node.id);
});
afterAll(() => ctx.close());

const param = (path: Path, name: string): Param => {
  const found = params[path].find((p) => p.name === name);
  if (!found) throw new Error(`${path} documents no ${name}`);
  return found;
};

/** The typed value an OpenAPI deserializer makes of one query value (OpenAPI 3.1, 4.8.12.4). */
function deserialize(p: Param, raw: string): unknown {
  switch (p.schema.type) {
    case 'array':
      // Every array of the document is style: form, explode: false (checked below).
      return raw === '' ? [] : raw.split(',');
    case 'integer':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}

function schemaAccepts(p: Param, raw: string): boolean {
  let validate = validators.get(p.schema);
  if (!validate) validators.set(p.schema, (validate = ajv.compile(p.schema)));
  return validate(deserialize(p, raw)) as boolean;
}

const isTaxonomy = (p: Param) => p.name.startsWith('job_');
const LEVEL_OF: Record<string, string> = {
  job_domain: 'domain',
  job_family: 'family',
  job_subfamily: 'subfamily',
  job_class: 'class',
};
const items = (p: Param, raw: string) => (p.schema.type === 'array' ? raw.split(',') : [raw]);
/** Whether the service's answer may be kinder than the schema (see the header). */
const lenient = (p: Param, raw: string) =>
  items(p, raw).some((i) => i !== i.trim()) || (p.name === 'country' && raw !== raw.toUpperCase());

/** A valid partner for a parameter that is only taken with another one (see the header). */
const PARTNER: Record<string, string> = {
  histogram: '&interval=week',
  interval: '&histogram=published',
  group_limit: '&group_by=level',
};

async function serviceAccepts(path: Path, name: string, raw: string): Promise<boolean> {
  const keyed = ENDPOINTS.find((e) => e.path === path)?.keyed;
  const res = await get(
    ctx.baseUrl,
    `${path}?${name}=${encodeURIComponent(raw)}${PARTNER[name] ?? ''}`,
    keyed ? { key: reader.key } : {},
  );
  if (res.status === 200) return true;
  // Anything else than a verdict on the value (429, 5xx) is a failure of the test's premise.
  if (res.status !== 400 && res.status !== 422) {
    throw new Error(`${path}?${name}=${JSON.stringify(raw)}: ${res.status} ${res.text}`);
  }
  expect(res.body.error.details.parameter).toBe(name);
  return false;
}

/** The check itself: the same verdict from the document and from the service. */
async function agree(path: Path, name: string, raw: string): Promise<void> {
  const p = param(path, name);
  const schema = schemaAccepts(p, raw);
  const service = await serviceAccepts(path, name, raw);
  const verdicts = { path, name, raw, schema, service };
  const realIds =
    isTaxonomy(p) && items(p, raw).every((i) => ids[LEVEL_OF[name] ?? '']?.includes(i));
  if (name === 'sort' && raw === 'relevance') {
    expect(verdicts).toEqual({ ...verdicts, schema: true, service: false });
  } else if (lenient(p, raw)) {
    if (schema) expect(verdicts).toEqual({ ...verdicts, service: true });
  } else if (isTaxonomy(p) && !realIds) {
    // An id of the right shape may still not exist: only "the schema refuses ⇒ the service does".
    if (!schema) expect(verdicts).toEqual({ ...verdicts, service: false });
  } else {
    expect(verdicts).toEqual({ ...verdicts, service: schema });
  }
}

it('declares every array as a comma list (style: form, explode: false)', () => {
  for (const list of Object.values(params)) {
    for (const p of list.filter((q) => q.schema.type === 'array')) {
      expect({ name: p.name, style: p.style, explode: p.explode }).toEqual({
        name: p.name,
        style: 'form',
        explode: false,
      });
    }
  }
});

// The reports of a Schemathesis run against the old document ("rejected a schema-compliant
// request"), and their neighbours, each with the service's exact answer (contract §6.2: a wrong
// format is 422 validation_error, an unknown value 400 invalid_filter, a page too large 400
// page_size_exceeded) and the schema's verdict on the same value.
const FINDINGS: [Path, string, string, number, boolean][] = [
  ['/v1/opportunities', 'limit', '0', 422, false],
  ['/v1/opportunities', 'limit', '-1', 422, false],
  ['/v1/opportunities', 'limit', '1.5', 422, false],
  ['/v1/opportunities', 'limit', 'abc', 422, false],
  ['/v1/opportunities', 'limit', '', 422, false],
  ['/v1/opportunities', 'limit', '101', 400, false],
  ['/v1/opportunities', 'limit', '100', 200, true],
  ['/v1/preview/opportunities', 'limit', '6', 400, false],
  ['/v1/preview/opportunities', 'limit', '5', 200, true],
  ['/v1/opportunities', 'max_new', '0', 200, true],
  ['/v1/opportunities', 'max_new', '101', 422, false],
  ['/v1/opportunities/count', 'group_limit', '0', 422, false],
  ['/v1/opportunities/count', 'group_by', 'level,level', 400, false],
  ['/v1/opportunities/count', 'group_by', 'level,country,source', 400, false],
  ['/v1/opportunities/count', 'group_by', 'level,country', 200, true],
  ['/v1/opportunities/count', 'include', '', 422, false],
  ['/v1/opportunities/count', 'stats', 'median', 400, false],
  ['/v1/opportunities/count', 'stats', 'rate', 200, true],
  ['/v1/opportunities/count', 'histogram', 'changed_at', 400, false],
  ['/v1/opportunities/count', 'interval', 'year', 400, false],
  ['/v1/opportunities', 'city', '', 422, false],
  ['/v1/opportunities', 'city', '   ', 422, false],
  ['/v1/opportunities', 'city', 'a,b', 400, false],
  ['/v1/opportunities', 'city', 'x'.repeat(301), 422, false],
  ['/v1/opportunities', 'city', '😀'.repeat(300), 200, true],
  ['/v1/opportunities', 'city', 'Saint-Étienne', 200, true],
  ['/v1/opportunities', 'level', '', 422, false],
  ['/v1/opportunities', 'level', 'senior,', 422, false],
  ['/v1/opportunities', 'level', 'Senior', 400, false],
  ['/v1/opportunities', 'level', 'senior,staff', 200, true],
  ['/v1/preview/opportunities', 'level', 'senior,staff', 400, false],
  ['/v1/opportunities', 'engagement_model', 'freelance', 400, false],
  ['/v1/opportunities', 'remote', 'maybe', 422, false],
  ['/v1/opportunities', 'remote', 'TRUE', 422, false],
  ['/v1/opportunities', 'country', 'ZQ', 400, false],
  ['/v1/opportunities', 'country', 'USA', 400, false],
  ['/v1/opportunities', 'rate_min', '-1', 422, false],
  ['/v1/opportunities', 'rate_min', '1e3', 422, false],
  ['/v1/opportunities', 'rate_min', '9'.repeat(400), 422, false],
  ['/v1/opportunities', 'rate_min', '80.5', 200, true],
  ['/v1/opportunities', 'published_after', '2026-02-30', 422, false],
  ['/v1/opportunities', 'published_after', '2026-01-31T09:00', 422, false],
  ['/v1/opportunities', 'published_after', '2026-01-31T09:00:00', 422, false],
  ['/v1/opportunities', 'published_after', 'yesterday', 422, false],
  ['/v1/opportunities', 'published_after', '2026-01-31', 200, true],
  ['/v1/opportunities', 'published_after', '2024-02-29T23:59:59.5+05:30', 200, true],
  ['/v1/opportunities/changes', 'since', '2026-13-01', 422, false],
  ['/v1/opportunities/changes', 'since', '2026-01-31', 200, true],
  ['/v1/opportunities/changes', 'limit', '0', 422, false],
  // contract §7.4: q is 1 to 200 characters once trimmed (400 invalid_filter otherwise), commas are text.
  ['/v1/opportunities', 'q', '', 400, false],
  ['/v1/opportunities', 'q', '   ', 400, false],
  ['/v1/opportunities', 'q', 'x'.repeat(201), 400, false],
  ['/v1/opportunities', 'q', '😀'.repeat(200), 200, true],
  ['/v1/opportunities/count', 'q', 'a,b OR "c d" -e', 200, true],
  ['/v1/preview/opportunities', 'q', 'c++ node.js', 200, true],
  ['/v1/opportunities', 'sort', 'newest', 400, false],
];
const shown = (raw: string) =>
  JSON.stringify(raw.length > 24 ? `${raw.slice(0, 12)}… (${raw.length})` : raw);
describe.each(
  FINDINGS.map(([path, name, raw, ...rest]) => [path, name, shown(raw), raw, ...rest] as const),
)('%s %s=%s', (path, name, _shown, raw, status, valid) => {
  it(`answers ${status}, and the schema ${valid ? 'admits' : 'refuses'} it`, async () => {
    const keyed = ENDPOINTS.find((e) => e.path === path)?.keyed;
    const q = `${path}?${name}=${encodeURIComponent(raw)}${PARTNER[name] ?? ''}`;
    const res = await get(ctx.baseUrl, q, keyed ? { key: reader.key } : {});
    expect(res.status).toBe(status);
    expect(schemaAccepts(param(path, name), raw)).toBe(valid);
  });
});

it('taxonomy ids: real ids at their level pass both; the schema says where they come from', async () => {
  for (const [name, level] of Object.entries(LEVEL_OF)) {
    const id = ids[level]?.[0] ?? '';
    await agree('/v1/opportunities/count', name, id);
    const p = param('/v1/opportunities/count', name);
    expect(schemaAccepts(p, id)).toBe(true);
    expect(JSON.stringify(p)).toMatch(/taxonomy/);
  }
  await agree('/v1/opportunities/count', 'job_family', 'Data'); // a label: both refuse
});

// The property: any parameter of any endpoint, values drawn from its own schema (valid ones and
// their neighbours at every bound) and from hostile text.
const HOSTILE = [
  '', ' ', ',', ',,', 'a,b', '0', '-0', '-1', '07', '1e3', '1.5', '+1', ' 1', '1 ', 'abc', 'TRUE',
  'null', '%', '%25', '\u0000', '\t', 'é', '😀', '2026-02-30', '2026-01-31', '2024-02-29T12:00:00Z',
  'senior', 'Senior', 'senior,', 'us', 'US', 'x'.repeat(257), '😀'.repeat(257),
]; // prettier-ignore

function valid(schema: Schema): fc.Arbitrary<string> {
  if (schema.type === 'array' && schema.items) {
    return fc.array(valid(schema.items), { minLength: 1, maxLength: 3 }).map((a) => a.join(','));
  }
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === 'integer') {
    const [min, max] = [schema.minimum ?? 0, schema.maximum ?? 1000];
    return fc.integer({ min: min - 2, max: max + 2 }).map(String);
  }
  if (schema.type === 'boolean') return fc.constantFrom('true', 'false');
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: 20 });
}

/** One digit of a valid value changed: 2026-02-30 from 2026-02-10, 101 from 100, 0 from 5. */
function nearMiss(value: string): fc.Arbitrary<string> {
  const digits = [...value.matchAll(/\d/g)].map((m) => m.index);
  if (digits.length === 0) return fc.constant(value);
  return fc
    .tuple(fc.constantFrom(...digits), fc.integer({ min: 0, max: 9 }))
    .map(([at, d]) => `${value.slice(0, at)}${d}${value.slice(at + 1)}`);
}

const values = (p: Param): fc.Arbitrary<string> => {
  const good = isTaxonomy(p)
    ? fc
        .array(fc.constantFrom(...(ids[LEVEL_OF[p.name] ?? ''] ?? ['none'])), {
          minLength: 1,
          maxLength: p.schema.type === 'array' ? 3 : 1,
        })
        .map((a) => a.join(','))
    : valid(p.schema);
  return fc.oneof(
    { weight: 3, arbitrary: good },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: good.chain(nearMiss) },
    { weight: 1, arbitrary: good.map((v) => `${v},`) },
    { weight: 1, arbitrary: fc.tuple(good, good).map(([a, b]) => `${a},${b}`) },
    { weight: 1, arbitrary: good.map((v) => v.toUpperCase()) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
};

it('any parameter, any value: the schema and the service give the same verdict', async () => {
  const cases = fc.constantFrom(
    ...ENDPOINTS.flatMap(({ path }) =>
      params[path].filter((p) => p.name !== 'cursor').map((p) => ({ path, p })),
    ),
  );
  await fc.assert(
    fc.asyncProperty(
      cases.chain(({ path, p }) => values(p).map((raw) => ({ path, name: p.name, raw }))),
      async ({ path, name, raw }) => agree(path, name, raw),
    ),
    { numRuns: Number(process.env.VERDICT_RUNS ?? 400), seed: 20261125 },
  );
});
