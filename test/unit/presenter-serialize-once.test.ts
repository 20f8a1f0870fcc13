import { serializeOnce, toolOutcome } from '../../src/adapter/presenter';
import { parseRestQuery } from '../../src/domain/filters';
import { createLogger } from '../../src/infra/logger';
import { countEnvelope } from '../../src/service/count-json';
import { taxonomy } from './taxonomy-fixture';

// contract §21.10: the taxonomy tool's reply is built once per process, not once per call; a count's
// JSON is the one its envelope was spliced with.

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

it('a count tool result is the JSON countEnvelope kept, not the envelope serialized again', () => {
  const request = parseRestQuery('count', { job_family: 'data' }, { taxonomy });
  const { body } = countEnvelope(request, { count: 7 }, 'req-2');
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    const { json, texts } = toolOutcome({ ok: true, body, headers: {} }, 'req-2', logger);
    expect(stringify.mock.calls.filter(([value]) => typeof value !== 'string')).toEqual([]);
    stringify.mockRestore();
    expect(json).toBe(JSON.stringify(body));
    expect(texts).toEqual({ structured: json, text: JSON.stringify(json) });
  } finally {
    stringify.mockRestore();
  }
});
