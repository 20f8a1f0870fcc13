import { isIP } from 'node:net';

// Client addresses (contract §19.6): which proxies to believe, and how addresses are grouped for the
// per-address limits (the authentication-failure throttle and the preview limit).

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** express's trust-proxy setting: false (the socket's address), a hop count, or addresses/CIDRs. */
export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY: unset or empty → false; digits → a hop count; else a comma-separated list of
 * addresses, CIDRs or express's names (loopback, linklocal, uniquelocal). Returns an error message
 * for anything else, so that a typo stops start-up instead of trusting the wrong hops.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { error: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !validEntry(e));
  if (bad.length > 0) {
    return {
      error: `expected a hop count, or addresses/CIDRs comma-separated; got ${bad.join(', ')}`,
    };
  }
  return entries;
}

function validEntry(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The key a per-address limit counts under: an IPv4 address as is (also when IPv4-mapped), an
 * IPv6 address by its /64, since one subscriber usually holds a whole /64 (contract §19.6).
 */
export function addressGroup(given: string | undefined): string {
  if (!given) return 'unknown';
  const ip = bareAddress(given);
  const version = isIP(ip);
  if (version === 4) return ip;
  // Not an address (a trusted proxy's odd spelling): one group for all such, so that varying the
  // spelling cannot open a new allowance each time.
  if (version === 0) return 'not-an-address';
  const hextets = expandIpv6(ip);
  // IPv4-mapped (::ffff:0:0/96) in any spelling (`::ffff:198.51.100.3`, `::ffff:c633:6403`,
  // `0:0:0:0:0:ffff:…`) is that IPv4 address: the hex spellings fell into the /64 of ::.
  if (hextets.slice(0, 5).every((h) => h === '0') && hextets[5] === 'ffff') {
    const [high = 0, low = 0] = hextets.slice(6).map((h) => parseInt(h, 16));
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${hextets.slice(0, 4).join(':')}::/64`;
}

/**
 * The address a trusted proxy's X-Forwarded-For entry names, without what some proxies add to it:
 * a port (`203.0.113.7:51234`, `[2001:db8::1]:443`) or brackets (`[2001:db8::1]`). Each new
 * source port was a group of its own.
 */
function bareAddress(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed?.[1]) return bracketed[1];
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry);
  return withPort?.[1] ?? entry;
}

/** The eight hextets of an IPv6 address, lower-case without leading zeros. */
function expandIpv6(ip: string): string[] {
  const withoutZone = ip.split('%')[0] ?? ip;
  const [head = '', tail] = withoutZone.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  let left = parts(head);
  let right = tail === undefined ? [] : parts(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two hextets.
  const last = (tail === undefined ? left : right).at(-1);
  if (last?.includes('.')) {
    const octets = last.split('.').map(Number);
    const hextets = [
      (((octets[0] ?? 0) << 8) | (octets[1] ?? 0)).toString(16),
      (((octets[2] ?? 0) << 8) | (octets[3] ?? 0)).toString(16),
    ];
    if (tail === undefined) left = [...left.slice(0, -1), ...hextets];
    else right = [...right.slice(0, -1), ...hextets];
  }
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...Array.from({ length: missing }, () => '0'), ...right];
  return all.map((h) => (parseInt(h, 16) || 0).toString(16));
}
