import { fromExpressError, isBadPathEscape } from '../../src/http/middleware/express-errors';

// contract §20.4: express's own client errors map to documented statuses, anything else stays a bug.

const withStatus = (status: number, type?: string) =>
  Object.assign(new Error('x'), { status, statusCode: status, ...(type ? { type } : {}) });

describe('fromExpressError', () => {
  it('a path parameter express could not decode → 422 validation_error', () => {
    const err = Object.assign(new URIError("Failed to decode param '%ZZ'"), { status: 400 });
    expect(isBadPathEscape(err)).toBe(true);
    expect(fromExpressError(err)).toMatchObject({ status: 422, code: 'validation_error' });
  });

  it.each([
    [withStatus(400, 'entity.parse.failed'), 422, 'validation_error'],
    [withStatus(413, 'entity.too.large'), 413, 'payload_too_large'],
    [withStatus(415, 'charset.unsupported'), 422, 'validation_error'],
    [withStatus(400, 'request.aborted'), 422, 'validation_error'],
    [withStatus(404), 404, 'not_found'],
    [withStatus(405), 405, 'method_not_allowed'],
    [withStatus(431), 431, 'request_header_fields_too_large'],
  ])('%p → %i %s', (err, status, code) => {
    expect(fromExpressError(err)).toMatchObject({ status, code });
  });

  it("a 413 names body-parser's bound, so the caller knows what to send", () => {
    const err = Object.assign(withStatus(413, 'entity.too.large'), { limit: 1_048_576 });
    expect(fromExpressError(err)?.message).toBe(
      'The request body is too large: at most 1048576 bytes.',
    );
  });

  // body-parser's strict mode refuses `null` and `"x"`, valid JSON both: "not valid JSON" was false.
  it('a body that is no JSON object or array says so', () => {
    expect(fromExpressError(withStatus(400, 'entity.parse.failed'))?.message).toBe(
      'The request body is not a JSON object or array.',
    );
  });

  it.each([new Error('boom'), withStatus(500), new URIError('x'), 'text', null])(
    '%p is not a client error',
    (err) => {
      expect(fromExpressError(err)).toBeNull();
    },
  );
});
