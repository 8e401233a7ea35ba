import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../test/helpers/suite.ts';
import { api, createProject } from '../test/helpers/api.ts';

/**
 * The host serves stored images at `/images/{id}` (server-bin/images.ts): the stored type, never
 * sniffed, sandboxed, 404 once replaced. What is stored is core's (core/images/images.test.ts).
 */

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';

describeWithServer('serving stored images', (get) => {
  it('serves an uploaded image from its own URL with its type, nosniff and a sandbox CSP; the replaced one answers 404', async () => {
    const server = get();
    const p = await createProject(server);
    const created = await api(server, 'POST', '/users', p.server, { profile_image_url: `data:image/png;base64,${PNG_BASE64}` });
    assert.equal(created.status, 201, created.text);
    const url = created.body.profile_image_url as string;
    assert.match(url, new RegExp(`^${server.url}/images/[0-9a-f-]{36}$`));
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), Buffer.from(PNG_BASE64, 'base64'));

    const updated = await api(server, 'PATCH', `/users/${created.body.id}`, p.server, { profile_image_url: GIF });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await fetch(updated.body.profile_image_url)).headers.get('content-type'), 'image/gif');
    const gone = await fetch(url);
    assert.equal(gone.status, 404, 'the replaced image is gone');
    assert.equal(gone.headers.get('x-content-type-options'), 'nosniff');
  });

  it('answers 404 for an unknown image id', async () => {
    const server = get();
    assert.equal((await fetch(`${server.url}/images/5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11`)).status, 404);
  });
});
