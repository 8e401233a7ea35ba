import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';

/** Base64 images are stored by Gatehouse and served from its own URL. */

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = `data:image/png;base64,${PNG_BASE64}`;
const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';

describeWithServer('stored images', (get) => {
  it('stores a base64 profile image and serves it from its own URL with nosniff, replacing the old one on change', async () => {
    const server = get();
    const p = await createProject(server);
    const created = await api(server, 'POST', '/users', p.server, { profile_image_url: PNG });
    assert.equal(created.status, 201, created.text);
    const url = created.body.profile_image_url as string;
    assert.match(url, new RegExp(`^${server.url}/images/[0-9a-f-]{36}$`));
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), Buffer.from(PNG_BASE64, 'base64'));

    // The client view and a later read show the URL, never the data: URL.
    const read = await api(server, 'GET', `/users/${created.body.id}`, p.server);
    assert.equal(read.body.profile_image_url, url);

    const updated = await api(server, 'PATCH', `/users/${created.body.id}`, p.server, { profile_image_url: GIF });
    assert.equal(updated.status, 200, updated.text);
    assert.notEqual(updated.body.profile_image_url, url);
    assert.equal((await fetch(updated.body.profile_image_url)).headers.get('content-type'), 'image/gif');
    assert.equal((await fetch(url)).status, 404, 'the replaced image is gone');

    const plain = await api(server, 'PATCH', `/users/${created.body.id}`, p.server, { profile_image_url: 'https://example.com/a.png' });
    assert.equal(plain.body.profile_image_url, 'https://example.com/a.png');
  });

  it('refuses invalid URLs, SVG and content that does not match its type with SCHEMA_ERROR "Invalid profile image URL"', async () => {
    const server = get();
    const p = await createProject(server);
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;
    const htmlAsPng = `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`;
    for (const bad of ['not a url', 'javascript:alert(1)', svg, htmlAsPng]) {
      const res = await api(server, 'POST', '/users', p.server, { profile_image_url: bad });
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.match(res.body.error, /body\.profile_image_url: Invalid profile image URL/, bad.slice(0, 40));
    }
    const big = `data:image/png;base64,${Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(200 * 1024)]).toString('base64')}`;
    assertKnownError(await api(server, 'POST', '/users', p.server, { profile_image_url: big }), 'SCHEMA_ERROR', 400);
    assert.equal((await fetch(`${server.url}/images/5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11`)).status, 404);
  });

  it('stores team images and project logos the same way', async () => {
    const server = get();
    const p = await createProject(server);
    const team = await api(server, 'POST', '/teams', p.server, { display_name: 'T', profile_image_url: PNG });
    assert.equal(team.status, 201, team.text);
    assert.match(team.body.profile_image_url, /\/images\/[0-9a-f-]{36}$/);
    assert.equal((await fetch(team.body.profile_image_url)).status, 200);
    const project = await api(server, 'PATCH', '/internal/projects/current', p.admin, { logo_url: PNG });
    assert.equal(project.status, 200, project.text);
    assert.match(project.body.logo_url, /\/images\/[0-9a-f-]{36}$/);
    assert.equal((await fetch(project.body.logo_url)).headers.get('content-type'), 'image/png');
    assertKnownError(await api(server, 'PATCH', '/internal/projects/current', p.admin, { logo_url: 'ftp://x' }), 'SCHEMA_ERROR', 400);
  });
});
