import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';

// MCP CPU per tool call (docs/benchmarks.md). A tool result carries its envelope twice, as
// structuredContent and as the same JSON in a text block (contract §21.7), and the SDK transport
// serializes the whole JSON-RPC reply into a web Response that http.ts then reads back into bytes:
// the envelope's records were serialized again (already done once, and cached, by listJson), and
// the reply went through undici's string conversion, a UTF-8 encode and a web-stream read.
//
// Instead, a tool result goes to the SDK with two short placeholders where its text and its
// structuredContent go; the SDK still parses, validates and frames it (ids, batches, errors) as
// before, and the reply it serializes is small. The placeholders are then replaced by the JSON
// the SDK would have written there: JSON.stringify of the text, and the envelope's JSON, which is
// exactly JSON.stringify(structuredContent) (adapter/presenter.ts). The bytes are those of before.
//
// One instance per HTTP request (its own list of texts), like the transport and the Server. The
// placeholders carry a random per-process mark: no client can know it, so nothing a client sends
// (a JSON-RPC id, a tool name in an error message) can pose as one. Characters of the mark need
// no JSON escaping, so a placeholder appears in the reply exactly as written here.

const MARK = `mcp-deferred-${randomBytes(12).toString('hex')}-`;
/** `{"<mark>N":0}` where a structuredContent was, `"<mark>N"` where a text was. */
const PLACEHOLDER = new RegExp(`\\{"${MARK}(\\d+)":0\\}|"${MARK}(\\d+)"`, 'g');

export class DeferredJson {
  private readonly texts: string[] = [];

  /** True once a result was deferred: the reply then needs fill(). */
  get pending(): boolean {
    return this.texts.length > 0;
  }

  /**
   * `result` with placeholders for its text block and its structuredContent; `json` must be both
   * the text and JSON.stringify(structuredContent), as toolOutcome makes them, and `jsonString`
   * JSON.stringify(json) (toolOutcome builds it from the records' quoted texts). Any other shape is
   * returned unchanged.
   */
  defer(result: CallToolResult, json: string, jsonString = JSON.stringify(json)): CallToolResult {
    const [block, ...rest] = result.content;
    if (rest.length > 0 || block?.type !== 'text' || block.text !== json) return result;
    if (result.structuredContent === undefined) return result;
    const text = this.hold(jsonString);
    const structured = this.hold(json);
    return {
      ...result,
      content: [{ type: 'text', text }],
      structuredContent: { [structured]: 0 },
    };
  }

  /**
   * The reply with every placeholder replaced. A result the SDK did not send leaves nothing to
   * replace; a placeholder that is unknown or seen twice is a bug, and throws (a 500).
   */
  fill(reply: string): string {
    const used = new Array<boolean>(this.texts.length).fill(false);
    return reply.replace(PLACEHOLDER, (_match, structured?: string, text?: string) => {
      const index = Number(structured ?? text);
      if (used[index] !== false) throw new Error(`mcp: placeholder ${index} unknown or repeated`);
      used[index] = true;
      return this.texts[index] ?? '';
    });
  }

  private hold(json: string): string {
    this.texts.push(json);
    return `${MARK}${this.texts.length - 1}`;
  }
}
