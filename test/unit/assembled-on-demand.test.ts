import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { assembledOnDemand } from '../../src/app/assembled-on-demand';

const req = {} as Request;
const res = {} as Response;

/** Calls the handler once; resolves with what reached `next`. */
function call(handler: RequestHandler): Promise<unknown> {
  return new Promise((resolve) => {
    const next: NextFunction = (err?: unknown) => resolve(err ?? 'next');
    void handler(req, res, next);
  });
}

/** The assembled handler: it answers by passing 'handled' on, so `call` can tell it ran. */
const answering: RequestHandler = (_req, _res, next) => next('handled');

it('assembles nothing until the first request, then once for every request', async () => {
  const assemble = jest.fn(async () => answering);
  const handler = assembledOnDemand(assemble, 'on-first-request');
  await Promise.resolve();
  expect(assemble).not.toHaveBeenCalled();
  expect(await Promise.all([call(handler), call(handler)])).toEqual(['handled', 'handled']);
  expect(await call(handler)).toBe('handled');
  expect(assemble).toHaveBeenCalledTimes(1);
});

it("'now' starts assembling at once, and the first request uses what it built", async () => {
  const assemble = jest.fn(async () => answering);
  const handler = assembledOnDemand(assemble, 'now');
  expect(assemble).toHaveBeenCalledTimes(1);
  expect(await call(handler)).toBe('handled');
  expect(assemble).toHaveBeenCalledTimes(1);
});

it("a failed assembly is that request's error; the next request assembles again", async () => {
  const failure = new Error('cannot load');
  const assemble = jest
    .fn<Promise<RequestHandler>, []>()
    .mockRejectedValueOnce(failure)
    .mockResolvedValue(answering);
  const handler = assembledOnDemand(assemble, 'now');
  expect(await call(handler)).toBe(failure);
  expect(await call(handler)).toBe('handled');
  expect(assemble).toHaveBeenCalledTimes(2);
});
