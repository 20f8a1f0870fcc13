import { createHmac, timingSafeEqual } from 'node:crypto';

// contract §18.5: a marketplace-proxy request is verified when it carries
// `X-Marketplace-Proxy-Signature: t=UNIX,v1=HEX`, HEX being the HMAC-SHA256 of `t + "." + request
// id` under MARKETPLACE_PROXY_SECRET, with t within 300 seconds of now.

export const MARKETPLACE_SIGNATURE_TOLERANCE_SECONDS = 300;

export function verifyMarketplaceSignature(
  header: string | undefined,
  requestId: string,
  secret: string | undefined,
  nowSeconds: number,
): boolean {
  // No secret configured: nothing can be verified, so direct traffic is never billed as marketplace.
  if (!secret || !header) return false;
  const parsed = parseSignature(header);
  if (!parsed) return false;
  if (Math.abs(nowSeconds - parsed.t) > MARKETPLACE_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${parsed.t}.${requestId}`).digest();
  // Compared as bytes in constant time; a wrong length is rejected before (it reveals nothing).
  return parsed.v1.some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** `t=UNIX,v1=HEX[,v1=HEX...]`, in any order; exactly one t. Null when malformed. */
function parseSignature(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (name === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return null;
      v1.push(value.toLowerCase());
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}
