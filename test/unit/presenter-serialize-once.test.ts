import { serializeOnce, toolOutcome, type ResultTexts } from '../../src/adapter/presenter';
import { parseRestQuery } from '../../src/domain/filters';
import { createLogger } from '../../src/infra/logger';
import { AssembledBody } from '../../src/infra/reply-buffers';
import { countEnvelope } from '../../src/service/count-json';
import { listEnvelope } from '../../src/service/envelopes';
import { makeRecord } from '../support/fixtures';
import { taxonomy } from './taxonomy-fixture';

// contract §21.10: the taxonomy tool's reply is built once per process, not once per call; a count's
// JSON is the one its envelope was spliced with.

const logger = createLogger('error');

it('a body marked serializeOnce is not serialized again by a tool result', () => {
  const body = serializeOnce({ version: 'v1', nodes: [{ id: 'root' }] });
  const stringify = jest.spyOn(JSON, 'stringify');
  try {
    const { result } = toolOutcome({ ok: true, body, headers: {} }, 'req-1', logger);
    expect(stringify).not.toHaveBeenCalled();
    expect(result.content).toEqual([
      { type: 'text', text: '{"version":"v1","nodes":[{"id":"root"}]}' },
    ]);
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
    const { result, texts } = toolOutcome({ ok: true, body, headers: {} }, 'req-2', logger);
    expect(stringify.mock.calls.filter(([value]) => typeof value !== 'string')).toEqual([]);
    stringify.mockRestore();
    const json = JSON.stringify(body);
    expect(result.content).toEqual([{ type: 'text', text: json }]);
    expect(texts).toEqual({ structured: json, text: JSON.stringify(json) });
  } finally {
    stringify.mockRestore();
  }
});

it("a list page's tool result: its texts are the page's bytes; its text block, the JSON, only if read", () => {
  const records = [makeRecord({ title: 'Caf\u00e9 "x"' }), makeRecord()];
  const body = listEnvelope(records, 'c1', 25, 'req-4', { job_family: ['data'] });
  const { result, texts } = toolOutcome({ ok: true, body, headers: {} }, 'req-4', logger);
  const bytes = (t: ResultTexts['text']) =>
    typeof t === 'string' ? Buffer.from(t) : AssembledBody.of(t).bytes;
  expect(bytes(texts.structured)).toEqual(Buffer.from(JSON.stringify(body)));
  expect(bytes(texts.text)).toEqual(Buffer.from(JSON.stringify(JSON.stringify(body))));
  expect(result.structuredContent).toEqual(body);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(body) }]);
});
