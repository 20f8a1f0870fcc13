// Dependencies of express without published types, used by test/unit/linear-input.test.ts to time
// what express runs on request headers (X-Forwarded-For, Content-Type).

declare module 'proxy-addr' {
  /** Every address of the request, the socket's first, through the trusted proxies. */
  export function all(req: unknown, trust?: string): string[];
}

declare module 'content-type' {
  export function parse(header: string): { type: string; parameters: Record<string, string> };
}
