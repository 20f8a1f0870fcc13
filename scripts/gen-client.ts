import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/http/openapi';
import { CLIENT_TYPES_PATH, generateClientTypes } from './client-types';

// `npm run gen:client` writes clients/typescript/schema.ts from the document the server serves
// (buildOpenApiDocument is what GET /v1/openapi.json returns).
// `tsx scripts/gen-client.ts --from URL --check` fetches a live document instead and exits 1 when
// the committed file differs from what it generates (the typed-client test runs this; it is a
// child process because openapi-typescript's dependencies are ES modules jest cannot load).
async function main(argv: string[]): Promise<number> {
  const from = argv.includes('--from') ? argv[argv.indexOf('--from') + 1] : undefined;
  const document = from ? ((await (await fetch(from)).json()) as object) : buildOpenApiDocument();
  const text = await generateClientTypes(document);
  if (argv.includes('--check')) {
    if (readFileSync(CLIENT_TYPES_PATH, 'utf8') === text) return 0;
    console.error(`${CLIENT_TYPES_PATH} is stale: run \`npm run gen:client\` and commit it`);
    return 1;
  }
  writeFileSync(CLIENT_TYPES_PATH, text);
  console.log(`wrote ${CLIENT_TYPES_PATH}`);
  return 0;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
