import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ResultTexts } from '../adapter/presenter';
import { AssembledBody, type BodyPieces } from '../infra/reply-buffers';

// MCP CPU per tool call (docs/benchmarks.md). A tool result carries its envelope twice, as
// structuredContent and as the same JSON in a text block (contract §21.7), and the SDK serializes
// the whole JSON-RPC reply: the envelope's records would be serialized again (already done once,
// and kept, by listJson), and the reply written as one long string: copied whole, then encoded
// to UTF-8 whole.
//
// Instead, a tool result goes to the SDK with two short placeholders where its text and its
// structuredContent go; the SDK still parses, validates and frames it (ids, errors) as before, and
// the reply it serializes is small. The placeholders are then replaced by what the SDK would have
// written there: JSON.stringify of the text, and the envelope's JSON, which is exactly
// JSON.stringify(structuredContent) (adapter/presenter.ts), a list page's as the UTF-8 bytes kept
// beside each record (service/list-bytes.ts). The bytes are those of before.
//
// One instance per HTTP request (its own list of texts), like the transport and the Server. The
// placeholders carry a random per-process mark: no client can know it, so nothing a client sends
// (a JSON-RPC id, a tool name in an error message) can pose as one. Characters of the mark need
// no JSON escaping, so a placeholder appears in the reply exactly as written here.

const MARK = `mcp-deferred-${randomBytes(12).toString('hex')}-`;
/** `{"<mark>N":0}` where a structuredContent was, `"<mark>N"` where a text was. */
const PLACEHOLDER = new RegExp(`\\{"${MARK}(\\d+)":0\\}|"${MARK}(\\d+)"`, 'g');

export class DeferredJson {
  private readonly texts: (string | BodyPieces)[] = [];

  /** True once a result was deferred: the reply then needs fill(). */
  get pending(): boolean {
    return this.texts.length > 0;
  }

  /**
   * `result` with placeholders for its text block and its structuredContent. `texts` are what the
   * reply holds for them, as toolOutcome makes them (adapter/presenter.ts): JSON.stringify of
   * structuredContent, which the text block's text is, and that text as a JSON string. Without
   * them, they are found from the result, when its text block is that JSON. Any other shape is
   * returned unchanged.
   */
  defer(result: CallToolResult, texts?: ResultTexts): CallToolResult {
    const [block, ...rest] = result.content;
    if (rest.length > 0 || block?.type !== 'text') return result;
    if (result.structuredContent === undefined) return result;
    let held = texts;
    if (held === undefined) {
      const json = block.text;
      if (json !== JSON.stringify(result.structuredContent)) return result;
      held = { structured: json, text: JSON.stringify(json) };
    }
    const text = this.hold(held.text);
    const structured = this.hold(held.structured);
    return {
      ...result,
      content: [{ type: 'text', text }],
      structuredContent: { [structured]: 0 },
    };
  }

  /**
   * The reply's UTF-8 bytes with every placeholder replaced: the bytes of the reply the SDK would
   * have serialized from the results themselves, assembled from the pieces (no copy of the whole
   * reply as a string first) in a pooled buffer (infra/reply-buffers.ts). A result the SDK did not
   * send leaves nothing to replace; a placeholder that is unknown or seen twice is a bug, and
   * throws (a 500).
   */
  fill(reply: string): AssembledBody {
    const used = new Array<boolean>(this.texts.length).fill(false);
    const pieces: (string | Uint8Array)[] = [];
    let from = 0;
    for (const match of reply.matchAll(PLACEHOLDER)) {
      const index = Number(match[1] ?? match[2]);
      if (used[index] !== false) throw new Error(`mcp: placeholder ${index} unknown or repeated`);
      used[index] = true;
      pieces.push(reply.slice(from, match.index));
      const held = this.texts[index] ?? '';
      if (typeof held === 'string') pieces.push(held);
      else pieces.push(...held);
      from = match.index + match[0].length;
    }
    pieces.push(reply.slice(from));
    return AssembledBody.of(pieces);
  }

  private hold(json: string | BodyPieces): string {
    this.texts.push(json);
    return `${MARK}${this.texts.length - 1}`;
  }
}
