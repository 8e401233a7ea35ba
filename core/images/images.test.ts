import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { coreBaseUrl } from '../../test/helpers/core-fixtures-b.ts';
import { loadImage } from './index.ts';

/**
 * Base64 images are stored by Gatehouse and served from its own URL. In-process
 * (test/helpers/core-client.ts): what is stored under which URL. Serving `/images/{id}` (content
 * type, nosniff, sandbox CSP, 404) is the host's: server-bin/images.test.ts.
 */

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = `data:image/png;base64,${PNG_BASE64}`;
const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==';

/** The stored image an `/images/{id}` URL of this core names, or null. */
async function stored(t: TestCore, url: string) {
  const m = new RegExp(`^${coreBaseUrl(t)}/images/([0-9a-f-]{36})$`).exec(url);
  assert.ok(m, `${url} is not an image URL of this server`);
  return loadImage(t.core.runtime.db, m[1]!);
}

describeWithCore('stored images', (get) => {
  it('stores a base64 profile image under its own URL, replacing the old one on change', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const created = await t.call<{ id: string; profile_image_url: string }>('users.create', p.server, { body: { profile_image_url: PNG } });
    const url = created.profile_image_url;
    const image = await stored(t, url);
    assert.equal(image?.contentType, 'image/png');
    assert.deepEqual(Buffer.from(image!.bytes), Buffer.from(PNG_BASE64, 'base64'));

    // A later read shows the URL, never the data: URL.
    const read = await t.call<{ profile_image_url: string }>('users.get', p.server, { params: { user_id: created.id } });
    assert.equal(read.profile_image_url, url);

    const updated = await t.call<{ profile_image_url: string }>('users.update', p.server, {
      params: { user_id: created.id },
      body: { profile_image_url: GIF },
    });
    assert.notEqual(updated.profile_image_url, url);
    assert.equal((await stored(t, updated.profile_image_url))?.contentType, 'image/gif');
    assert.equal(await stored(t, url), null, 'the replaced image is gone');

    const plain = await t.call<{ profile_image_url: string }>('users.update', p.server, {
      params: { user_id: created.id },
      body: { profile_image_url: 'https://example.com/a.png' },
    });
    assert.equal(plain.profile_image_url, 'https://example.com/a.png');
    assert.equal(await stored(t, updated.profile_image_url), null, 'an image replaced by a plain URL is gone');
  });

  it('refuses invalid URLs, SVG and content that does not match its type with SCHEMA_ERROR "Invalid profile image URL"', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;
    const htmlAsPng = `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`;
    for (const bad of ['not a url', 'javascript:alert(1)', svg, htmlAsPng]) {
      const refused = await t.refuses('users.create', p.server, { body: { profile_image_url: bad } }, 'SCHEMA_ERROR');
      assert.equal(refused.status, 400);
      assert.match(refused.message, /body\.profile_image_url: Invalid profile image URL/, bad.slice(0, 40));
    }
    const big = `data:image/png;base64,${Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(200 * 1024)]).toString('base64')}`;
    await t.refuses('users.create', p.server, { body: { profile_image_url: big } }, 'SCHEMA_ERROR');
    assert.equal(await loadImage(t.core.runtime.db, '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11'), null);
  });

  it('stores team images and project logos the same way', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const team = await t.call<{ profile_image_url: string }>('teams.create', p.server, {
      body: { display_name: 'T', profile_image_url: PNG },
    });
    assert.equal((await stored(t, team.profile_image_url))?.contentType, 'image/png');
    const project = await t.call<{ logo_url: string }>('projects.updateCurrent', p.admin, { body: { logo_url: PNG } });
    assert.equal((await stored(t, project.logo_url))?.contentType, 'image/png');
    assert.equal((await t.refuses('projects.updateCurrent', p.admin, { body: { logo_url: 'ftp://x' } }, 'SCHEMA_ERROR')).status, 400);
  });
});
