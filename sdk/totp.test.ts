import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Secret, TOTP, URI } from 'otpauth';
import { generateTotpSecret, toBase32, toBase64, totpAuthUri, totpForStep, verifyTotp } from './totp.ts';

describe('TOTP helpers', () => {
  it('compute the codes of RFC 6238 appendix B (SHA-1) and agree with otpauth', async () => {
    const rfcSecret = new TextEncoder().encode('12345678901234567890');
    // RFC 6238 gives 8 digits; the 6-digit code is its last six.
    assert.equal(await totpForStep(rfcSecret, Math.floor(59 / 30)), '287082');
    assert.equal(await totpForStep(rfcSecret, Math.floor(1111111109 / 30)), '081804');
    assert.equal(await totpForStep(rfcSecret, Math.floor(20000000000 / 30)), '353130');
    const secret = generateTotpSecret();
    assert.equal(secret.length, 20);
    const now = 1_763_000_000_000;
    const expected = TOTP.generate({ secret: Secret.fromBase32(toBase32(secret)), timestamp: now });
    assert.equal(await totpForStep(secret, Math.floor(now / 30_000)), expected);
    assert.equal(Buffer.from(toBase64(secret), 'base64').equals(Buffer.from(secret)), true);
  });

  it('accept the neighbouring steps and refuse others and malformed codes', async () => {
    const secret = generateTotpSecret();
    const now = 1_763_000_000_000;
    const step = Math.floor(now / 30_000);
    assert.equal(await verifyTotp(secret, await totpForStep(secret, step - 1), now), true);
    assert.equal(await verifyTotp(secret, await totpForStep(secret, step + 1), now), true);
    const far = await totpForStep(secret, step + 5);
    const near = await Promise.all([step - 1, step, step + 1].map((s) => totpForStep(secret, s)));
    if (!near.includes(far)) assert.equal(await verifyTotp(secret, far, now), false);
    assert.equal(await verifyTotp(secret, '12345', now), false);
    assert.equal(await verifyTotp(secret, 'abcdef', now), false);
  });

  it('build an otpauth URI that otpauth parses back to the same secret', () => {
    const secret = generateTotpSecret();
    const uri = totpAuthUri({ secret, account: 'ada@example.com', issuer: 'Acme Auth' });
    assert.match(
      uri,
      /^otpauth:\/\/totp\/Acme%20Auth:ada%40example\.com\?secret=[A-Z2-7]+&issuer=Acme%20Auth&algorithm=SHA1&digits=6&period=30$/,
    );
    const parsed = URI.parse(uri) as TOTP;
    assert.equal(parsed.secret.base32, toBase32(secret));
    assert.equal(parsed.issuer, 'Acme Auth');
    assert.equal(parsed.label, 'ada@example.com');
  });
});
