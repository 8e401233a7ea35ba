import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { createClient, idpProject } from './idp-fixtures.ts';

/** The error codes RFC 6749 §5.2, RFC 7009, RFC 7662 and RFC 8628 define for these endpoints. */
const RFC_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'unsupported_token_type',
  'authorization_pending',
  'slow_down',
  'expired_token',
  'access_denied',
  'too_many_requests',
]);

const FORM = 'application/x-www-form-urlencoded';

/** Malformed bodies: each a content type and bytes. */
const BODIES: Array<[string, string | Buffer]> = [
  [FORM, ''],
  [FORM, '%zz%%%=&&&=='],
  [FORM, 'grant_type=client_credentials&grant_type=authorization_code'],
  [FORM, 'grant_type=authorization_code&code=&redirect_uri=%00'],
  [FORM, 'grant_type=refresh_token&refresh_token[]=x&refresh_token[a]=y'],
  [FORM, `grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=${'x'.repeat(5000)}`],
  [FORM, 'grant_type=%F0%9F%92%A9&scope=%E2%80%AE&client_id=%F0%9F%92%A9'],
  [FORM, 'token=&token_type_hint=nope&client_id=nope'],
  [FORM, 'client_id=x&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=a.b.c'],
  [FORM, 'scope=openid&resource=not%20a%20url&client_id=x'],
  ['application/json', '{"grant_type":"client_credentials"}'],
  ['application/json', '{not json'],
  ['text/plain', 'grant_type=client_credentials'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--'],
  ['application/octet-stream', Buffer.from([0, 255, 254, 1, 2, 3, 128, 192])],
  [`${FORM}; charset=utf-16`, 'grant_type=client_credentials'],
  [FORM, 'x'.repeat(2 * 1024 * 1024)],
];

/** Malformed client authentication headers. */
const AUTHORIZATIONS = [
  undefined,
  'Basic',
  'Basic !!!not-base64',
  `Basic ${Buffer.from('no-colon').toString('base64')}`,
  `Basic ${Buffer.from('%zz:%zz').toString('base64')}`,
  `Basic ${Buffer.from(`${'a'.repeat(3000)}:b`).toString('base64')}`,
  'Bearer abc',
  'Digest username="x"',
];

describeWithServer('Identity provider: malformed requests get RFC errors, never a 500 (issue 31)', (get) => {
  it('answers every malformed body and client authentication on /token, /device/auth, /token/introspection and /token/revocation with an RFC error', async () => {
    const server = get();
    const p = await idpProject(server);
    // A real client, so some requests get as far as client authentication.
    await createClient(server, p.admin, { client_name: 'Job', grant_types: ['client_credentials'] });
    const seen = new Set<string>();
    for (const path of ['/token', '/device/auth', '/token/introspection', '/token/revocation']) {
      for (const [type, body] of BODIES) {
        for (const authorization of body === BODIES[1]![1] || body === BODIES[2]![1] ? AUTHORIZATIONS : [undefined, AUTHORIZATIONS[2]]) {
          const headers: Record<string, string> = { 'content-type': type };
          if (authorization) headers.authorization = authorization;
          const res = await fetch(`${p.issuer}${path}`, {
            method: 'POST',
            headers,
            body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
          });
          const text = await res.text();
          const what = `${path} ${type} ${String(body).slice(0, 60)} ${authorization ?? ''}`;
          assert.ok(res.status >= 400 && res.status < 500, `${what} → ${res.status} ${text.slice(0, 200)}`);
          const parsed = JSON.parse(text) as { error: string };
          assert.ok(RFC_ERRORS.has(parsed.error), `${what} → ${text.slice(0, 200)}`);
          assert.equal(res.status === 401, parsed.error === 'invalid_client', `${what}: 401 is for invalid_client only (${text})`);
          seen.add(parsed.error);
        }
      }
      // Wrong methods are refused too, not crashed on.
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(`${p.issuer}${path}`, { method });
        assert.ok(res.status < 500, `${method} ${path} → ${res.status}`);
      }
    }
    assert.ok(seen.has('invalid_request') && seen.has('invalid_client'), [...seen].join(' '));
  });
});
