import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textLines, type TextLine } from '../../src/infra/text-lines';

// src/infra/text-lines.ts: an import file's lines, each decoded alone, without holding one that is
// too long.

const dir = mkdtempSync(path.join(tmpdir(), 'text-lines-'));
let n = 0;

async function linesOf(content: Buffer | string, maxBytes = 1024): Promise<TextLine[]> {
  const file = path.join(dir, `f${n++}`);
  writeFileSync(file, content);
  const out: TextLine[] = [];
  for await (const line of textLines(file, maxBytes)) out.push(line);
  return out;
}

it('splits on LF and CRLF; a final newline starts no empty line; blank lines are lines', async () => {
  expect(await linesOf('a\r\nb\n\nc')).toEqual([
    { text: 'a' },
    { text: 'b' },
    { text: '' },
    { text: 'c' },
  ]);
  expect(await linesOf('a\nb\n')).toEqual([{ text: 'a' }, { text: 'b' }]);
  expect(await linesOf('')).toEqual([]);
});

it('reports a line longer than the bound, and goes on with the next', async () => {
  expect(await linesOf(`ok\n${'z'.repeat(50)}\nnext`, 20)).toEqual([
    { text: 'ok' },
    { problem: 'longer than 20 bytes' },
    { text: 'next' },
  ]);
});

it('reports a line that is not valid UTF-8, and goes on', async () => {
  const bytes = Buffer.concat([
    Buffer.from('BAD'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('X\nok'),
  ]);
  expect(await linesOf(bytes)).toEqual([{ problem: 'not valid UTF-8' }, { text: 'ok' }]);
});

it('decodes characters split across the file reads (a line of several chunks)', async () => {
  const long = 'é€😀'.repeat(40_000); // 360 KB: several 64 KB reads, characters cut between them
  expect(await linesOf(`${long}\nend`, 1024 * 1024)).toEqual([{ text: long }, { text: 'end' }]);
});
