import { CompactSign } from 'jose';
import { ApiError } from '../../src/domain/errors';
import { CursorCodec, parseCursorKeys } from '../../src/search/cursor';
import type { SearchAfter } from '../../src/search/query-builder';

// Cursor rules of contract §8.2, §8.4: compact JWS HS256 with kid; rotation; any defect is malformed_cursor.

const SECRET_A = 'a'.repeat(32);
const SECRET_B = 'b-secret-with=equals-and-more-than-32';
const binding = { filterDigest: 'digest-1', accountId: 'acct-1' };
const position: SearchAfter = [1767225600000, '0b1e9a52-1d7f-4a8e-9d0c-3f1f5c1e2a10'];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function expectMalformed(promise: Promise<unknown>): Promise<void> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect(err instanceof ApiError && [err.status, err.code]).toEqual([400, 'malformed_cursor']);
}

describe('CursorCodec', () => {
  const codec = new CursorCodec([{ kid: 'k1', secret: SECRET_A }]);

  it('round-trips the position', async () => {
    const token = await codec.encode({ ...binding, position });
    expect(token.split('.')).toHaveLength(3);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', kid: 'k1' });
    await expect(codec.decode(token, binding)).resolves.toEqual(position);
  });

  it('round-trips a relevance position, its float score exactly (contract §7.5)', async () => {
    const relevance: SearchAfter = [0.123456789123, 1767225600000, 'id-1'];
    const token = await codec.encode({ ...binding, position: relevance });
    await expect(codec.decode(token, binding)).resolves.toEqual(relevance);
  });

  it('verifies with an old key while a new one signs', async () => {
    const old = await codec.encode({ ...binding, position });
    const rotated = new CursorCodec([
      { kid: 'k2', secret: SECRET_B },
      { kid: 'k1', secret: SECRET_A },
    ]);
    await expect(rotated.decode(old, binding)).resolves.toEqual(position);
    const fresh = await rotated.encode({ ...binding, position });
    expect(JSON.parse(Buffer.from(fresh.split('.')[0] ?? '', 'base64url').toString()).kid).toBe(
      'k2',
    );
    await expectMalformed(codec.decode(fresh, binding)); // k2 unknown to the old codec
  });

  it('rejects another account or other filters', async () => {
    const token = await codec.encode({ ...binding, position });
    await expectMalformed(codec.decode(token, { ...binding, accountId: 'acct-2' }));
    await expectMalformed(codec.decode(token, { ...binding, filterDigest: 'digest-2' }));
  });

  it('rejects a tampered payload or signature', async () => {
    const [h, , s] = (await codec.encode({ ...binding, position })).split('.');
    const payload = b64({ v: 1, f: 'digest-1', a: 'acct-1', s: [0, 'x'] });
    await expectMalformed(codec.decode(`${h}.${payload}.${s}`, binding));
    const token = await codec.encode({ ...binding, position });
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    await expectMalformed(codec.decode(flipped, binding));
  });

  // base64url leaves the last character's low bits unused (a 32-byte signature is 43 characters,
  // 256 of 258 bits): a decoder that ignores them, padding or spaces took altered cursors.
  it('rejects every other spelling of a valid cursor: unused bits, padding, spaces', async () => {
    const token = await codec.encode({ ...binding, position });
    const [h, p, s = ''] = token.split('.');
    const last = s.slice(-1);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The characters that differ from the last one only in the two bits the signature leaves over.
    const at = alphabet.indexOf(last);
    const sameBits = [0, 1, 2, 3].map((i) => alphabet[(at & ~3) + i]).filter((c) => c !== last);
    expect(sameBits).toHaveLength(3);
    const spellings = [
      ...sameBits.map((c) => `${h}.${p}.${s.slice(0, -1)}${c}`),
      `${token}=`,
      `${token}==`,
      `${h}=.${p}.${s}`,
      ` ${token}`,
      `${token} `,
      `${token}\n`,
    ];
    for (const spelling of spellings) await expectMalformed(codec.decode(spelling, binding));
    await expect(codec.decode(token, binding)).resolves.toEqual(position);
  });

  it('rejects a key with the same kid but another secret', async () => {
    const forger = new CursorCodec([{ kid: 'k1', secret: 'f'.repeat(40) }]);
    await expectMalformed(codec.decode(await forger.encode({ ...binding, position }), binding));
  });

  it('rejects an unknown or missing kid', async () => {
    const other = new CursorCodec([{ kid: 'k9', secret: SECRET_A }]);
    await expectMalformed(codec.decode(await other.encode({ ...binding, position }), binding));
  });

  it('rejects an unsigned `none` token', async () => {
    const token = `${b64({ alg: 'none', kid: 'k1' })}.${b64({ v: 1, f: 'digest-1', a: 'acct-1', s: position })}.`;
    await expectMalformed(codec.decode(token, binding));
  });

  it.each(['', 'garbage', 'a.b.c', '....', '%%%.%%%.%%%', 'x'.repeat(5000)])(
    'rejects garbage %#',
    async (token) => {
      await expectMalformed(codec.decode(token, binding));
    },
  );

  it('rejects a signed payload of the wrong shape', async () => {
    const sign = (payload: unknown) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .sign(new TextEncoder().encode(SECRET_A));
    const good = { v: 1, f: 'digest-1', a: 'acct-1', s: position };
    await expect(codec.decode(await sign(good), binding)).resolves.toEqual(position);
    for (const bad of [
      { ...good, v: 2 },
      { ...good, s: [1.5, 'x'] },
      { ...good, s: ['1', 'x'] },
      { ...good, s: [1.5, 1.5, 'x'] }, // relevance: [score, freshness millis, id]
      { ...good, s: ['1', 1, 'x'] },
      { ...good, s: [1, 1, ''] },
      { ...good, s: [1, 1, 'x', 'y'] },
      [1],
    ]) {
      await expectMalformed(codec.decode(await sign(bad), binding));
    }
  });

  it('refuses short secrets, no keys and duplicate kids', () => {
    expect(() => new CursorCodec([{ kid: 'k', secret: 'short' }])).toThrow(/32/);
    expect(() => new CursorCodec([])).toThrow();
    expect(
      () =>
        new CursorCodec([
          { kid: 'k', secret: SECRET_A },
          { kid: 'k', secret: SECRET_B },
        ]),
    ).toThrow(/duplicate/);
  });
});

describe('parseCursorKeys', () => {
  it('reads kid=secret pairs, the first signing, secrets may contain =', () => {
    expect(parseCursorKeys(`k2=${SECRET_B}, k1=${SECRET_A}`)).toEqual([
      { kid: 'k2', secret: SECRET_B },
      { kid: 'k1', secret: SECRET_A },
    ]);
  });

  it.each(['', 'k1', '=secret', 'k1=', 'k1=x,,k2'])('rejects %j', (value) => {
    expect(() => parseCursorKeys(value)).toThrow(/CURSOR_SIGNING_KEYS/);
  });

  // A base64 secret pasted without its kid= reads as kid "<most of the secret>" and secret "=":
  // the message named that kid, printing the secret to the deploy log.
  it('names an entry by its position, never by what may be a secret', () => {
    const pasted = 'Qm9ndXNTZWNyZXRWYWx1ZQ==';
    expect(() => parseCursorKeys(`k1=${SECRET_A},${pasted}`)).toThrow(
      'CURSOR_SIGNING_KEYS: the secret of entry 2 must be at least 32 characters',
    );
    expect(() => parseCursorKeys(pasted)).not.toThrow(/Qm9ndXNTZWNyZXRWYWx1ZQ/);
  });
});
