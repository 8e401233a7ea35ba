import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sign } from 'node:crypto';
import { jwtVerify, importJWK } from 'jose';
import { KnownError } from '../errors/index.ts';
import { createKeyRing, audienceFor } from './keys.ts';
import { signAccessToken, verifyAccessToken, type AccessTokenSubject } from './access-token.ts';

const keys = createKeyRing('access-token-test-secret');
const PROJECT = '3f7c2a9e-5b1d-4e8f-a6c0-9d2b7e4f1a35';
const NOW = 1_800_000_000_000;
const subject: AccessTokenSubject = {
  projectId: PROJECT, branchId: 'main', userId: 'user-1', refreshTokenId: 'rt-1', displayName: 'A', primaryEmail: 'a@example.com',
  primaryEmailVerified: true, selectedTeamId: null, signedUpAt: NOW - 1000, isAnonymous: false, restrictedReason: null, requiresTotpMfa: false,
};

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof KnownError, String(error));
    return error.code;
  }
  return 'no error';
}

/** A token signed (node:crypto, raw r||s) with the project's real key but with chosen header and claims. */
function forge(header: Record<string, unknown>, claims: Record<string, unknown>): string {
  const [key] = keys.keysFor(audienceFor(PROJECT, 'default'));
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc({ alg: 'ES256', kid: key!.kid, ...header })}.${enc({ sub: 'user-1', project_id: PROJECT, refresh_token_id: 'rt-1', aud: PROJECT, ...claims })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: key!.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

describe('access-token verification', () => {
  it('accepts a token it signed and returns its claims, as jose does with the published key', async () => {
    const token = await signAccessToken(keys, 'http://localhost', subject, NOW, 600_000);
    const claims = await verifyAccessToken(keys, token, NOW + 1000);
    assert.equal(claims.sub, 'user-1');
    assert.equal(claims.aud, PROJECT);
    assert.equal(claims.exp, NOW / 1000 + 600);
    const [key] = keys.keysFor(PROJECT);
    const viaJose = await jwtVerify(token, await importJWK(key!.publicJwk, 'ES256'), { currentDate: new Date(NOW + 1000) });
    assert.deepEqual(viaJose.payload, claims);
  });

  it('answers ACCESS_TOKEN_EXPIRED with expired_at_millis at and after exp, and the admin variant when asked', async () => {
    const token = await signAccessToken(keys, 'http://localhost', subject, NOW, 600_000);
    await assert.rejects(verifyAccessToken(keys, token, NOW + 600_000), (e: KnownError) => e.code === 'ACCESS_TOKEN_EXPIRED' && e.details.expired_at_millis === NOW + 600_000);
    assert.equal(await codeOf(verifyAccessToken(keys, token, NOW + 599_999)), 'no error');
    assert.equal(await codeOf(verifyAccessToken(keys, token, NOW + 700_000, true)), 'ADMIN_ACCESS_TOKEN_EXPIRED');
  });

  it('answers UNPARSABLE_ACCESS_TOKEN for a tampered payload or signature, garbage, and an unknown kid', async () => {
    const token = await signAccessToken(keys, 'http://localhost', subject, NOW, 600_000);
    const [h, p, s] = token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone-else' })).toString('base64url');
    assert.equal(await codeOf(verifyAccessToken(keys, `${h}.${otherPayload}.${s}`, NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    const flipped = `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    assert.equal(await codeOf(verifyAccessToken(keys, `${h}.${p}.${flipped}`, NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, `${h}.${p}`, NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, 'not a token', NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, `${h}.${p}.${s}=`, NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({ kid: 'unknown' }, {}), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, 'x.y.z', NOW, true)), 'UNPARSABLE_ADMIN_ACCESS_TOKEN');
  });

  it('refuses another alg, a crit header, a non-numeric exp, a future nbf, missing claims and a foreign audience', async () => {
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, {}), NOW)), 'no error');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({ crit: ['exp'] }, {}), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({ alg: 'ES384' }, {}), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({ alg: 'none' }, {}), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, { exp: 'soon' }), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, { nbf: NOW / 1000 + 60 }), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, { nbf: NOW / 1000 }), NOW)), 'no error');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, { refresh_token_id: undefined }), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
    assert.equal(await codeOf(verifyAccessToken(keys, forge({}, { project_id: 'internal' }), NOW)), 'UNPARSABLE_ACCESS_TOKEN');
  });
});
