import type { CountEnvelope } from '../domain/envelopes';
import type { ParsedRequest } from '../domain/filters';
import type { CountFigures } from './count-extras';
import { representationTag } from './revalidation';

// A repeated count's envelope without serializing it twice and hashing it on every request
//. Two counts of one parsed request with the same figures differ only in
// meta.request_id, so the envelope's JSON around the request id and its entity tag (blind to the
// request id, contract §13) are kept beside the parsed request (service/parsed-requests.ts keeps
// one object per repeated query), and each response splices its own request id in.

interface Shape {
  /** The figures the shape was built from, and their JSON. */
  source: CountFigures;
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
  let shape = shapes.get(request);
  // The parts of a cached answer (a dashboard's histogram) are the same objects every time:
  // compared by identity first, by their JSON only when they are not.
  if (!shape || !sameParts(shape.source, figures)) {
    const figuresJson = JSON.stringify(figures);
    // An envelope always has its count; anything else is written the ordinary way.
    if (!figuresJson.startsWith('{"count":')) return { body, etag: representationTag(body) };
    if (shape?.figures === figuresJson) {
      shape.source = figures;
    } else {
      const head = `${figuresJson.slice(0, -1)},"meta":{"request_id":`;
      const tail = `,"applied_filters":${JSON.stringify(request.appliedFilters)}}}`;
      shape = { source: figures, figures: figuresJson, etag: representationTag(body), head, tail };
      shapes.set(request, shape);
    }
  }
  texts.set(body, shape.head + JSON.stringify(requestId) + shape.tail);
  return { body, etag: shape.etag };
}

/** The same keys in the same order, each with the same value (objects: the same object). */
function sameParts(a: CountFigures, b: CountFigures): boolean {
  const keys = Object.keys(b) as (keyof CountFigures)[];
  if (Object.keys(a).length !== keys.length) return false;
  let i = 0;
  for (const key in a) {
    if (key !== keys[i++] || a[key as keyof CountFigures] !== b[key as keyof CountFigures]) {
      return false;
    }
  }
  return true;
}

/** Exactly JSON.stringify(body), spliced from its shape when countEnvelope built it. */
export function countJson(body: object): string {
  return texts.get(body) ?? JSON.stringify(body);
}
