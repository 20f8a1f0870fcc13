import { batchText, inlineParams, runBatch, statement } from '../../src/billing/sql-batch';

// The meter writes values into multi-statement queries as literals (one round trip for several
// statements): quoting must hold for any text, and nothing unquoted may get through.
describe('inlineParams', () => {
  it('quotes strings, dates, integers, null and text arrays', () => {
    expect(
      inlineParams('SELECT $1, $2, $3, $4, $5, $10', [
        "it's",
        new Date('2025-01-02T03:04:05.000Z'),
        42,
        null,
        ['a', 'b"c', 'd\\e'],
        'x',
        'x',
        'x',
        'x',
        'ten',
      ]),
    ).toBe(
      `SELECT 'it''s', '2025-01-02T03:04:05.000Z', 42, NULL,  E'{"a","b\\\\"c","d\\\\\\\\e"}', 'ten'`,
    );
  });

  it('refuses a missing value and a number that is not an integer', () => {
    expect(() => inlineParams('SELECT $2', ['a'])).toThrow(/no value for \$2/);
    expect(() => inlineParams('SELECT $1', [1.5])).toThrow(/not an integer/);
  });
});

describe('runBatch', () => {
  /** A fake connection that answers each statement of the text with its own result. */
  function fake(extra = 0) {
    const sent: string[] = [];
    return {
      sent,
      query(text: string): Promise<unknown> {
        sent.push(text);
        const n = text.split(';\n').length + extra;
        const results = Array.from({ length: n }, (_, i) => ({ rowCount: i, rows: [{ i }] }));
        return Promise.resolve(n === 1 ? results[0] : results);
      },
    };
  }

  it('returns the result of each statement by its name, past BEGIN and the settings', async () => {
    const db = fake();
    const out = await runBatch(
      db,
      { spend: statement('INSERT $1', ['a']), account: statement('SELECT $1', [7]) },
      { begin: true, settings: { timeoutMs: 250.7, asynchronousCommit: true } },
    );
    expect(db.sent[0]).toBe(
      [
        'BEGIN',
        'SET LOCAL lock_timeout = 250',
        'SET LOCAL statement_timeout = 250',
        'SET LOCAL synchronous_commit = off',
        "INSERT 'a'",
        'SELECT 7',
      ].join(';\n'),
    );
    expect(out.spend.rowCount).toBe(4);
    expect(out.account.rowCount).toBe(5);
  });

  it('takes the lone result of a single statement', async () => {
    const out = await runBatch(fake(), { only: statement('SELECT 1') });
    expect(out.only.rowCount).toBe(0);
  });

  it('refuses results that do not line up with the statements', async () => {
    await expect(runBatch(fake(1), { a: statement('SELECT 1') })).rejects.toThrow(/2 results/);
  });

  it('ends the transaction with COMMIT when asked, and leaves its result unnamed', async () => {
    const db = fake();
    const out = await runBatch(db, { a: statement('SELECT 1') }, { begin: true, commit: true });
    expect(db.sent[0]).toBe('BEGIN;\nSELECT 1;\nCOMMIT');
    expect(out.a.rowCount).toBe(1);
  });

  it('writes the same text as it sends', () => {
    expect(batchText({ a: statement('SELECT $1', [null]) }, { begin: true })).toBe(
      'BEGIN;\nSELECT NULL',
    );
  });
});
