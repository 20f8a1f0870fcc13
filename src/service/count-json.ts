import type { CountEnvelope } from '../domain/envelopes';
import type { ParsedRequest } from '../domain/filters';
import type { CountFigures } from './count-extras';
import { representationTag } from './revalidation';

// A repeated count's envelope without serializing it twice and hashing it on every request
// (issue 25 item 6). Two counts of one parsed request with the same figures differ only in
// meta.request_id, so the envelope's JSON around the request id and its entity tag (blind to the
// request id, decisions 11) are kept beside the parsed request (service/parsed-requests.ts keeps
// one object per repeated query), and each response splices its own request id in.

interface Shape {
  /** JSON.stringify(figures) the shape was built from. */
  figures: string;
  etag: string;
  /** The envelope's JSON up to the request id's value, and from after it. */
  head: string;
  tail: string;
}

const shapes = new WeakMap<ParsedRequest, Shape>();
const texts = new WeakMap<object, string>();

/**
 * The count envelope of `figures` for `request`, and its entity tag (exactly
 * representationTag(body)); countJson(body) is then exactly JSON.stringify(body).
 */
export function countEnvelope(
  request: ParsedRequest,
  figures: CountFigures,
  requestId: string,
): { body: CountEnvelope; etag: string } {
  const body: CountEnvelope = {
    ...figures,
    meta: { request_id: requestId, applied_filters: request.appliedFilters },
  };
  const figuresJson = JSON.stringify(figures);
  // An envelope always has its count; anything else is written the ordinary way.
  if (!figuresJson.startsWith('{"count":')) return { body, etag: representationTag(body) };
  let shape = shapes.get(request);
  if (shape?.figures !== figuresJson) {
    const head = `${figuresJson.slice(0, -1)},"meta":{"request_id":`;
    const tail = `,"applied_filters":${JSON.stringify(request.appliedFilters)}}}`;
    shape = { figures: figuresJson, etag: representationTag(body), head, tail };
    shapes.set(request, shape);
  }
  texts.set(body, shape.head + JSON.stringify(requestId) + shape.tail);
  return { body, etag: shape.etag };
}

/** Exactly JSON.stringify(body), spliced from its shape when countEnvelope built it. */
export function countJson(body: CountEnvelope): string {
  return texts.get(body) ?? JSON.stringify(body);
}
