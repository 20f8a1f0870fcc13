import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator as AjvV2 } from '@modelcontextprotocol/client/validators/ajv';
import { V1_VALIDATOR } from './sdk-client';
import { sharedValidator } from './shared-validator';

// The MCP client matrix of contract §21.4: /mcp driven by the 1.x SDK client, the 2.x
// client pinned to each protocol revision, and the 2.x client negotiating (auto), as of today and
// as a client newer than the server. The same tests
// run through each; `revision` is what the connection must end up speaking.

export interface McpClientKind {
  name: string;
  /** The revision this client must negotiate with our server. */
  revision: string;
  connect(url: URL, headers: Record<string, string>, fetchImpl?: typeof fetch): Promise<McpClient>;
}

/** What the tests use of either SDK's Client. */
export interface McpClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: object; outputSchema?: object }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{
    content: unknown;
    structuredContent?: unknown;
    isError?: boolean;
  }>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  /** The revision the connection negotiated. */
  revision(): string | undefined;
  close(): Promise<void>;
}

const INFO = { name: 'mcp-matrix', version: '1.0.0' };

/** The 2.x clients' validator: that SDK's own Ajv, each schema compiled once (shared-validator.ts). */
const V2_VALIDATOR = sharedValidator(new AjvV2());

function v2(
  name: string,
  revision: string,
  options: ConstructorParameters<typeof ClientV2>[1],
): McpClientKind {
  return {
    name,
    revision,
    async connect(url, headers, fetchImpl) {
      const client = new ClientV2(INFO, { ...options, jsonSchemaValidator: V2_VALIDATOR });
      await client.connect(
        new TransportV2(url, {
          requestInit: { headers },
          ...(fetchImpl ? { fetch: fetchImpl } : {}),
        }),
      );
      return {
        listTools: () => client.listTools(),
        callTool: (p) => client.callTool(p),
        listResources: () => client.listResources(),
        readResource: (p) => client.readResource(p),
        revision: () => client.getNegotiatedProtocolVersion(),
        close: () => client.close(),
      };
    },
  };
}

const v1: McpClientKind = {
  name: 'sdk 1.x client',
  revision: '2025-11-25',
  async connect(url, headers, fetchImpl) {
    const client = new ClientV1(INFO, { jsonSchemaValidator: V1_VALIDATOR });
    const transport = new TransportV1(url, {
      requestInit: { headers },
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
    await client.connect(transport);
    return {
      listTools: () => client.listTools(),
      callTool: async (p) => client.callTool(p) as ReturnType<McpClient['callTool']>,
      listResources: () => client.listResources(),
      readResource: (p) => client.readResource(p),
      revision: () => transport.protocolVersion,
      close: () => client.close(),
    };
  },
};

export const MCP_CLIENTS: readonly McpClientKind[] = [
  v1,
  v2('2.x client pinned to 2025-06-18', '2025-06-18', {
    supportedProtocolVersions: ['2025-06-18'],
  }),
  v2('2.x client pinned to 2025-11-25', '2025-11-25', {
    supportedProtocolVersions: ['2025-11-25'],
  }),
  v2('2.x client pinned to 2026-07-28', '2026-07-28', {
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  }),
  v2('2.x client negotiating (auto)', '2026-07-28', { versionNegotiation: { mode: 'auto' } }),
  // A client newer than the server: its probe under 2027-01-01 is refused with the revisions
  // spoken here, and it retries with the newest both speak (contract §21.4.4).
  v2('2.x client of a newer revision negotiating (auto)', '2026-07-28', {
    versionNegotiation: { mode: 'auto' },
    supportedProtocolVersions: ['2027-01-01', '2026-07-28', '2025-11-25'],
  }),
];
