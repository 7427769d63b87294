/** Key facts a registrar and a validator check: DNSKEY rdata, key tag and DS digest, against RFC 6605 §6.1. */
import { sign, verify, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALGORITHM_ECDSAP256SHA256, CSK_FLAGS, dnskeyRdata, dsDigest, keyTag, newCsk, p256PublicKey } from './key-material';

// RFC 6605 §6.1: example.net's P-256 key and its DS.
const RFC6605_KEY = Buffer.from('GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==', 'base64');
const RFC6605_DS = 'b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17';

describe('DNSSEC key facts', () => {
  it('gives the RFC 6605 §6.1 key tag 55648 and its DS digest', () => {
    const rdata = dnskeyRdata(257, 13, RFC6605_KEY);
    expect(keyTag(rdata)).toBe(55648);
    expect(dsDigest('example.net', rdata)).toBe(RFC6605_DS.toUpperCase());
    // The owner name is hashed in canonical (lower-case) form.
    expect(dsDigest('EXAMPLE.net', rdata)).toBe(RFC6605_DS.toUpperCase());
  });

  it('makes a CSK whose stored tag and digest match its public key, and whose private key signs for it', () => {
    const row = newCsk(7, 'example.com', '2026-01-01T00:00:00.000Z');
    expect(row).toMatchObject({ domain_id: 7, flags: CSK_FLAGS, algorithm: ALGORITHM_ECDSAP256SHA256 });
    const point = Buffer.from(row.public_key, 'base64');
    expect(point).toHaveLength(64);
    const rdata = dnskeyRdata(row.flags, row.algorithm, point);
    expect(row.key_tag).toBe(keyTag(rdata));
    expect(row.ds_digest).toBe(dsDigest('example.com', rdata));
    expect(row.ds_digest).toMatch(/^[0-9A-F]{64}$/);
    const priv = createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' });
    const sig = sign('sha256', Buffer.from('data'), { key: priv, dsaEncoding: 'ieee-p1363' });
    expect(sig).toHaveLength(64);
    expect(verify('sha256', Buffer.from('data'), { key: p256PublicKey(point), dsaEncoding: 'ieee-p1363' }, sig)).toBe(true);
  });

  it('makes a different key every time', () => {
    const a = newCsk(1, 'example.com', '');
    const b = newCsk(1, 'example.com', '');
    expect(a.public_key).not.toBe(b.public_key);
    expect(a.ds_digest).not.toBe(b.ds_digest);
  });
});
