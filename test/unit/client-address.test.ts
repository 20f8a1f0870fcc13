import { addressGroup, parseTrustProxy } from '../../src/infra/client-address';
import { parseEnv } from '../../src/config';

describe('addressGroup (contract §19.6)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
    // What some proxies write: a port, brackets (each source port was a group of its own).
    ['203.0.113.7:51234', '203.0.113.7'],
    ['[2001:db8:7:7::32]', '2001:db8:7:7::/64'],
    ['[2001:db8:7:7::1]:443', '2001:db8:7:7::/64'],
    ['[::ffff:203.0.113.7]:80', '203.0.113.7'],
    // IPv4-mapped in its other spellings is the same IPv4 (the hex ones fell into ::/64).
    ['::ffff:c633:6403', '198.51.100.3'],
    ['::FFFF:198.51.100.3', '198.51.100.3'],
    ['0:0:0:0:0:ffff:198.51.100.3', '198.51.100.3'],
    ['0000:0000:0000:0000:0000:FFFF:C633:6403', '198.51.100.3'],
    ['[::ffff:c633:6403]:443', '198.51.100.3'],
    // Not mapped: ::ffff itself, and an IPv4-compatible or translated address, stay IPv6.
    ['::ffff', '0:0:0:0::/64'],
    ['::c633:6403', '0:0:0:0::/64'],
    // Not an address: one group for every such spelling, not one each.
    ['garbage1', 'not-an-address'],
    ['010.009.009.009', 'not-an-address'],
    ['0x0a.9.9.9', 'not-an-address'],
  ])('%s → %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
    ['fd00::/8,loopback', ['fd00::/8', 'loopback']],
  ])('%p → %p', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
    expect(parseEnv(raw === undefined ? {} : { TRUST_PROXY: raw }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['true', 'everything', '10.0.0.0/33', '1.2.3', '-1', '10.0.0.1/8/9'])(
    '%s stops start-up naming the variable',
    (raw) => {
      expect(() => parseEnv({ TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/);
    },
  );
});
