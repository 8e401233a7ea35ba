import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { deflateSync, gzipSync } from 'node:zlib';
import * as sdk108 from '@stackframe/js';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError } from '../helpers/api.ts';
import { MAX_BODY_BYTES } from '../../server-bin/api/body.ts';
import { sdkApps, type StackSdk } from './helpers.ts';

const batch = () => ({
  session_replay_segment_id: randomUUID(),
  batch_id: randomUUID(),
  sent_at_ms: Date.now(),
  events: [{ event_type: '$page-view', event_at_ms: Date.now(), data: { path: '/' } }],
});

/**
 * Compressed request bodies: @stackframe/js 2.8.108 gzips its analytics batch
 * (application/octet-stream, stack-shared `encodeAnalyticsBody`), and any request may name
 * gzip or deflate in Content-Encoding; the body size limit applies after decompression.
 */
describeWithServer('compressed request bodies', (get) => {
  it('accepts the gzipped analytics batch @stackframe/js 2.8.108 sends', async () => {
    const { clientApp } = await sdkApps(get(), sdk108 as unknown as StackSdk);
    const app = clientApp();
    const signUp = await app.signUpWithCredential({
      email: 'analytics@example.com',
      password: 'a long password 123',
      noVerificationCallback: true,
      noRedirect: true,
    });
    assert.equal(signUp.status, 'ok', JSON.stringify(signUp));
    const sent: { contentType: string | null; gzip: boolean }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/analytics/events/batch')) {
        const body = init?.body as Uint8Array;
        sent.push({
          contentType: new Headers(init?.headers).get('content-type'),
          gzip: body instanceof Uint8Array && body[0] === 0x1f && body[1] === 0x8b,
        });
      }
      return realFetch(input, init);
    };
    let result;
    try {
      result = await app[sdk108.stackAppInternalsSymbol].sendAnalyticsEventBatch(JSON.stringify(batch()), { keepalive: false });
    } finally {
      globalThis.fetch = realFetch;
    }
    assert.deepEqual(sent, [{ contentType: 'application/octet-stream', gzip: true }], 'the SDK really sent gzip bytes');
    assert.equal(result.status, 'ok', String(result.error));
    assert.deepEqual(await result.data.json(), { inserted: 0 });
  });

  it('accepts gzip and deflate Content-Encoding on any JSON route', async () => {
    const { project } = await sdkApps(get(), sdk108 as unknown as StackSdk);
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
    ] as const) {
      const res = await fetch(`${get().url}/api/v1/internal/config/override/branch`, {
        method: 'PATCH',
        headers: {
          'x-stack-project-id': project.projectId,
          'x-stack-access-type': 'admin',
          'x-stack-admin-access-token': project.owner.accessToken,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: new Uint8Array(
          compress(
            Buffer.from(
              JSON.stringify({ config_override_string: JSON.stringify({ 'users.allowClientUserDeletion': encoding === 'gzip' }) }),
            ),
          ),
        ),
      });
      assert.equal(res.status, 200, await res.text());
      const config = JSON.parse((await api(get(), 'GET', '/internal/config', project.admin)).body.config_string);
      assert.equal(config.users.allowClientUserDeletion, encoding === 'gzip');
    }
  });

  it('answers BODY_PARSING_ERROR (never a 500) to a zip bomb, corrupt data and an unknown encoding', async () => {
    const { project } = await sdkApps(get(), sdk108 as unknown as StackSdk);
    const bomb = gzipSync(Buffer.alloc(MAX_BODY_BYTES * 4, 0x20));
    assert.ok(bomb.length < MAX_BODY_BYTES / 100, 'small on the wire');
    const post = (headers: Record<string, string>, body: Buffer) =>
      fetch(`${get().url}/api/v1/analytics/events/batch`, {
        method: 'POST',
        headers: {
          'x-stack-project-id': project.projectId,
          'x-stack-access-type': 'admin',
          'x-stack-admin-access-token': project.owner.accessToken,
          ...headers,
        },
        body: new Uint8Array(body),
      });
    for (const [headers, body, message] of [
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb, /larger than/],
      [{ 'content-type': 'application/octet-stream' }, bomb, /larger than/],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, Buffer.from('not gzip at all'), /not valid compressed data/],
      [{ 'content-type': 'application/json', 'content-encoding': 'br' }, Buffer.from('{}'), /Unsupported content-encoding br/],
    ] as const) {
      const res = await post(headers, body);
      const text = await res.text();
      assert.equal(res.status, 400, text);
      assertKnownError({ status: res.status, headers: res.headers, body: JSON.parse(text), text }, 'BODY_PARSING_ERROR', 400);
      assert.match(JSON.parse(text).error, message);
    }
  });
});
