import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, importJWK } from 'jose';
import { KnownError } from '../errors/index.ts';
import { createKeyRing, audienceFor } from './keys.ts';
import { signAccessToken, verifyAccessToken, type AccessTokenSubject } from './access-token.ts';

const keys = createKeyRing('access-token-test-secret');
const PROJECT = '3f7c2a9e-5b1d-4e8f-a6c0-9d2b7e4f1a35';
const NOW = 1_800_000_000_000;
const subject: AccessTokenSubject = {
  projectId: PROJECT,
  branchId: 'main',
  userId: 'user-1',
  refreshTokenId: 'rt-1',
  displayName: 'A',
  primaryEmail: 'a@example.com',
  primaryEmailVerified: true,
  selectedTeamId: null,
  signedUpAt: NOW - 1000,
  isAnonymous: false,
  restrictedReason: null,
  requiresTotpMfa: false,
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
    await assert.rejects(
      verifyAccessToken(keys, token, NOW + 600_000),
      (e: KnownError) => e.code === 'ACCESS_TOKEN_EXPIRED' && e.details.expired_at_millis === NOW + 600_000,
    );
    assert.equal(await codeOf(verifyAccessToken(keys, token, NOW + 599_999)), 'no error');
    assert.equal(await codeOf(verifyAccessToken(keys, token, NOW + 700_000, true)), 'ADMIN_ACCESS_TOKEN_EXPIRED');
  });

  it('answers UNPARSABLE_ACCESS_TOKEN for a tampered payload or signature, garbage, and an unknown kid', async () => {
    const token = await signAccessToken(keys, 'http://localhost', subject, NOW, 600_000);
    const [h, p, s] = token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone-else' }),
    ).toString('base64url');
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

  it("agrees with jose.jwtVerify (ES256, the kid's key, the project's audience) on every case of format, header, key, signature, issuer and time", async () => {
    const sec = NOW / 1000;
    const [key] = keys.keysFor(audienceFor(PROJECT, 'default'));
    const token = await signAccessToken(keys, 'http://localhost', subject, NOW, 600_000);
    const [h, p, s] = token.split('.') as [string, string, string];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone-else' }),
    ).toString('base64url');
    const raw = (header: unknown, payload: unknown) => {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const input = `${enc(header)}.${enc(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key: key!.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const claims = { sub: 'user-1', project_id: PROJECT, refresh_token_id: 'rt-1', aud: PROJECT };
    const withKey = (privateKey: KeyObject, header: unknown, payload: unknown) => {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const input = `${enc(header)}.${enc(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    };
    const OTHER = '6a3c1f0e-1c2b-4d5e-9f00-123456789abc';
    const [otherKey] = keys.keysFor(audienceFor(OTHER, 'default'));
    const [foreignKey] = createKeyRing('another-server-secret').keysFor(audienceFor(PROJECT, 'default'));
    const cases: Record<string, string> = {
      'a token Gatehouse signed': token,
      'a forged token with valid claims': forge({}, {}),
      'exp in the past': forge({}, { exp: sec - 1 }),
      'exp equal to now': forge({}, { exp: sec }),
      'exp in the future': forge({}, { exp: sec + 1 }),
      'nbf in the future': forge({}, { nbf: sec + 1 }),
      'nbf equal to now': forge({}, { nbf: sec }),
      'iat in the future': forge({}, { iat: sec + 3600 }),
      'iat not a number': forge({}, { iat: '1' }),
      'exp not a number': forge({}, { exp: 'soon' }),
      'nbf not a number': forge({}, { nbf: null }),
      'alg ES384': forge({ alg: 'ES384' }, {}),
      'alg none': forge({ alg: 'none' }, {}),
      'alg HS256': forge({ alg: 'HS256' }, {}),
      'a crit header': forge({ crit: ['exp'] }, {}),
      'b64 false': forge({ b64: false, crit: ['b64'] }, {}),
      'typ JWT': forge({ typ: 'JWT' }, {}),
      'an unknown kid': forge({ kid: 'unknown' }, {}),
      'no kid': raw({ alg: 'ES256' }, claims),
      'a tampered payload': `${h}.${otherPayload}.${s}`,
      'a flipped signature bit': `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`,
      'a short signature': `${h}.${p}.${s.slice(0, 40)}`,
      'a DER signature': `${h}.${p}.${sign('sha256', Buffer.from(`${h}.${p}`), key!.privateKey).toString('base64url')}`,
      'two segments': `${h}.${p}`,
      'four segments': `${h}.${p}.${s}.x`,
      'padding in the signature': `${h}.${p}.${s}=`,
      'a header that is an array': raw([{ alg: 'ES256', kid: key!.kid }], claims),
      'a payload that is an array': raw({ alg: 'ES256', kid: key!.kid }, [claims]),
      'a foreign audience': forge({}, { aud: '6a3c1f0e-1c2b-4d5e-9f00-123456789abc' }),
      'another key under the right kid': withKey(
        generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
        { alg: 'ES256', kid: key!.kid },
        claims,
      ),
      "another project's token": withKey(
        otherKey!.privateKey,
        { alg: 'ES256', kid: otherKey!.kid },
        { ...claims, project_id: OTHER, aud: OTHER },
      ),
      "another project's key and kid, this project's audience": withKey(otherKey!.privateKey, { alg: 'ES256', kid: otherKey!.kid }, claims),
      "another server secret's key and kid": withKey(foreignKey!.privateKey, { alg: 'ES256', kid: foreignKey!.kid }, claims),
      "another server secret's key under the right kid": withKey(foreignKey!.privateKey, { alg: 'ES256', kid: key!.kid }, claims),
      // Neither side checks `iss`: the project's own signing key and `aud` bind the token.
      'a foreign issuer': forge({}, { iss: 'https://attacker.example' }),
      'no issuer': forge({}, { iss: undefined }),
      'a tampered header (kid of the restricted audience)': `${Buffer.from(JSON.stringify({ alg: 'ES256', kid: keys.keysFor(audienceFor(PROJECT, 'restricted'))[0]!.kid })).toString('base64url')}.${p}.${s}`,
      garbage: 'not a token',
    };
    // Every project's keys, as the server holds them (which project a request is for is checked
    // later, in core/auth/request-auth.ts).
    const audiences = [PROJECT, OTHER].flatMap((id) => [
      audienceFor(id, 'default'),
      audienceFor(id, 'restricted'),
      audienceFor(id, 'anonymous'),
    ]);
    const byKid = new Map(
      audiences.flatMap((audience) => keys.keysFor(audience).map((k) => [k.kid, { jwk: k.publicJwk, audience }] as const)),
    );
    for (const [name, candidate] of Object.entries(cases)) {
      const ours = (await codeOf(verifyAccessToken(keys, candidate, NOW))) === 'no error';
      let theirs: boolean;
      try {
        // jose with the key the header's kid names, and the audience that key signs for.
        const entry = byKid.get(String(decodeProtectedHeader(candidate).kid));
        if (!entry) throw new Error('no such kid');
        await jwtVerify(candidate, await importJWK(entry.jwk, 'ES256'), {
          algorithms: ['ES256'],
          audience: entry.audience,
          currentDate: new Date(NOW),
        });
        theirs = true;
      } catch {
        theirs = false;
      }
      assert.equal(ours, theirs, `${name}: Gatehouse ${ours ? 'accepts' : 'refuses'}, jose ${theirs ? 'accepts' : 'refuses'}`);
    }
  });
});
