import type { Response } from 'express';
import { sendError, toolOutcome } from '../../src/adapter/presenter';
import { ApiError, unknownParameter } from '../../src/domain/errors';
import { createLogger } from '../../src/infra/logger';
import { metrics } from '../../src/infra/metrics';

// Error answers are counted where they are written, once each: the REST envelope and the MCP tool
// error alike, whichever layer raised the error (a tool's own argument check raises none in the
// read service).

const logger = createLogger('error', () => undefined);

function fakeResponse(): Response {
  const res = { set: () => res, status: () => res, json: () => res };
  return res as unknown as Response;
}

let counted: jest.SpyInstance;
beforeEach(() => {
  counted = jest.spyOn(metrics, 'apiError');
});
afterEach(() => counted.mockRestore());

it('a tool error is counted once, as its result is written', () => {
  const error = unknownParameter('opportunity_id');
  toolOutcome({ ok: false, error, headers: {} }, 'req-1', logger);
  expect(counted).toHaveBeenCalledTimes(1);
  expect(counted).toHaveBeenCalledWith(error);
});

it('a REST error is counted once, as its envelope is sent', () => {
  const error = new ApiError('opportunity_not_found', 'No canonical opportunity has that id.');
  sendError(fakeResponse(), error, 'req-2', logger);
  expect(counted).toHaveBeenCalledTimes(1);
});

it('a served tool result counts nothing', () => {
  toolOutcome({ ok: true, body: { a: 1 }, headers: {} }, 'req-3', logger);
  expect(counted).not.toHaveBeenCalled();
});
