import { serializeOnce, toolOutcome } from '../../src/adapter/presenter';
import { createLogger } from '../../src/infra/logger';

// contract §21.10: the taxonomy tool's reply is built once per process, not once per call.

const logger = createLogger('error');

it('a body marked serializeOnce is not serialized again by a tool result', () => {
  const body = serializeOnce({ version: 'v1', nodes: [{ id: 'root' }] });
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    const { json, result } = toolOutcome({ ok: true, body, headers: {} }, 'req-1', logger);
    expect(stringify).not.toHaveBeenCalled();
    expect(json).toBe('{"version":"v1","nodes":[{"id":"root"}]}');
    expect(result.structuredContent).toEqual(body);
  } finally {
    stringify.mockRestore();
  }
});
