import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore, startTestCore } from '../helpers/core-client.ts';
import { startSamlIdp, type TestSamlIdp } from '../helpers/saml-idp.ts';
import { setVerifiedDomainTeams, type VerifiedDomainTeams } from '../../core/sso/index.ts';
import { refreshStaleMetadata } from '../../core/sso/metadata-refresh.ts';

describeWithCore('Team SSO connections: management (in-process)', (get) => {
  let idp: TestSamlIdp;
  let p: Awaited<ReturnType<typeof createCoreProject>>;
  let teamId: string;

  before(async () => {
    idp = await startSamlIdp();
    p = await createCoreProject(get());
    teamId = (await get().call<{ id: string }>('teams.create', p.server, { body: { display_name: 'Corp' } })).id;
  });
  after(async () => {
    await idp?.close();
  });

  const create = (body: Record<string, unknown>) =>
    get().call<Record<string, any>>('sso.createConnection', p.server, { params: { team_id: teamId }, body });

  it('creates a SAML connection from a metadata URL or from entity id, SSO URL and certificate, and lists, reads, updates and deletes it', async () => {
    const t = get();
    const fromUrl = await create({ type: 'saml', idp_metadata_url: idp.metadataUrl, display_name: 'Okta' });
    assert.equal(fromUrl.idp_entity_id, idp.entityId);
    assert.equal(fromUrl.idp_sso_url, idp.ssoUrl);
    assert.equal(fromUrl.idp_metadata_url, idp.metadataUrl);
    assert.equal(fromUrl.acs_url, `http://127.0.0.1:1/api/v1/auth/sso/saml/${fromUrl.id}/acs`);
    t.clock.advance(1000);
    const manual = await create({
      type: 'saml',
      idp_entity_id: 'urn:idp',
      idp_sso_url: 'https://idp.example/sso',
      idp_certificate: idp.certificate,
    });
    assert.equal(manual.idp_entity_id, 'urn:idp');
    const list = await t.call<{ items: Array<{ id: string }> }>('sso.listConnections', p.server, { params: { team_id: teamId } });
    assert.deepEqual(
      list.items.map((c) => c.id),
      [fromUrl.id, manual.id],
    );
    const updated = await t.call<Record<string, any>>('sso.updateConnection', p.server, {
      params: { team_id: teamId, connection_id: manual.id },
      body: { display_name: 'Entra', domains: ['Corp.Example'], default_permissions: ['team_member'], idp_metadata_xml: idp.metadataXml },
    });
    assert.equal(updated.display_name, 'Entra');
    assert.deepEqual(updated.domains, ['corp.example']);
    assert.equal(updated.idp_entity_id, idp.entityId);
    const read = await t.call<Record<string, any>>('sso.getConnection', p.admin, { params: { team_id: teamId, connection_id: manual.id } });
    assert.deepEqual(read, updated);
    await t.call('sso.deleteConnection', p.server, { params: { team_id: teamId, connection_id: manual.id } });
    await t.refuses('sso.getConnection', p.server, { params: { team_id: teamId, connection_id: manual.id } }, 'SSO_CONNECTION_NOT_FOUND');
  });

  it('lets a team member with $manage_sso manage the team’s connections, but not set domains; others get TEAM_PERMISSION_REQUIRED', async () => {
    const t = get();
    const admin = await createCoreUser(t, p);
    const member = await createCoreUser(t, p);
    for (const user of [admin, member]) await t.call('teams.addMember', p.server, { params: { team_id: teamId, user_id: user.id } });
    await t.call('permissions.grantTeam', p.server, {
      params: { team_id: teamId, user_id: admin.id, permission_id: '$manage_sso' },
      body: {},
    });
    const made = await t.call<{ id: string }>('sso.createConnection', admin.client, {
      params: { team_id: teamId },
      body: { type: 'saml', idp_metadata_xml: idp.metadataXml },
    });
    await t.refuses('sso.listConnections', member.client, { params: { team_id: teamId } }, 'TEAM_PERMISSION_REQUIRED');
    await t.refuses(
      'sso.createConnection',
      admin.client,
      { params: { team_id: teamId }, body: { type: 'saml', idp_metadata_xml: idp.metadataXml, domains: ['corp.example'] } },
      'SCHEMA_ERROR',
    );
    await t.call('sso.deleteConnection', admin.client, { params: { team_id: teamId, connection_id: made.id } });
  });

  it('refuses unusable IdP metadata with SSO_IDP_METADATA_INVALID (never a 500) and more than one IdP source with SCHEMA_ERROR', async () => {
    const t = get();
    const bad = [
      '<not xml',
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="urn:x"/>',
      idp.metadataXml.replace(/<ds:X509Certificate>[^<]+</g, '<ds:X509Certificate>bm90IGEgY2VydA==<'),
      'x'.repeat(600_000),
    ];
    for (const xml of bad) {
      await t.refuses(
        'sso.createConnection',
        p.server,
        { params: { team_id: teamId }, body: { type: 'saml', idp_metadata_xml: xml } },
        xml.length > 524_288 ? 'SCHEMA_ERROR' : 'SSO_IDP_METADATA_INVALID',
      );
    }
    await t.refuses(
      'sso.createConnection',
      p.server,
      { params: { team_id: teamId }, body: { type: 'saml', idp_metadata_xml: idp.metadataXml, idp_metadata_url: idp.metadataUrl } },
      'SCHEMA_ERROR',
    );
    await t.refuses(
      'sso.createConnection',
      p.server,
      {
        params: { team_id: teamId },
        body: { type: 'saml', idp_entity_id: 'urn:x', idp_sso_url: 'https://idp.example/sso', idp_certificate: 'not a cert' },
      },
      'SSO_IDP_METADATA_INVALID',
    );
  });

  it('needs a trusted idp_initiated_redirect_url to turn IdP-initiated sign-in on', async () => {
    const t = get();
    const body = { type: 'saml', idp_metadata_xml: idp.metadataXml, allow_idp_initiated: true };
    await t.refuses('sso.createConnection', p.server, { params: { team_id: teamId }, body }, 'SCHEMA_ERROR');
    await t.refuses(
      'sso.createConnection',
      p.server,
      { params: { team_id: teamId }, body: { ...body, idp_initiated_redirect_url: 'https://evil.example/start' } },
      'REDIRECT_URL_NOT_WHITELISTED',
    );
  });

  it('routes an address by email: a connection of a team that verified its domain (the verified-domains seam) before one that lists it', async () => {
    const t = get();
    const verifiedTeam = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'Verified' } });
    const listing = await create({
      type: 'saml',
      idp_entity_id: 'urn:a',
      idp_sso_url: 'https://listing-idp.example/sso',
      idp_certificate: idp.certificate,
      domains: ['acme.example'],
    });
    const verified = await t.call<{ id: string }>('sso.createConnection', p.server, {
      params: { team_id: verifiedTeam.id },
      body: { type: 'saml', idp_entity_id: 'urn:b', idp_sso_url: 'https://verified-idp.example/sso', idp_certificate: idp.certificate },
    });
    const start = (email: string) =>
      t.call<{ location: string }>(
        'sso.authorize',
        {},
        {
          query: {
            client_id: p.projectId,
            client_secret: '__stack_public_client__',
            redirect_uri: 'http://localhost:3000/handler/oauth-callback',
            state: 'app-state',
            grant_type: 'authorization_code',
            code_challenge: 'x'.repeat(43),
            code_challenge_method: 'S256',
            response_type: 'code',
            stack_response_mode: 'json',
            email,
          },
        },
      );
    assert.ok((await start('ann@acme.example')).location.startsWith('https://listing-idp.example/sso?'));
    const lookup: VerifiedDomainTeams = async (_db, projectId, domain) =>
      projectId === p.projectId && domain === 'acme.example' ? [verifiedTeam.id] : [];
    setVerifiedDomainTeams(lookup);
    try {
      assert.ok((await start('ann@ACME.example')).location.startsWith('https://verified-idp.example/sso?'));
    } finally {
      setVerifiedDomainTeams(async () => []);
    }
    await t.refuses(
      'sso.authorize',
      {},
      {
        query: {
          ...{
            client_id: p.projectId,
            client_secret: '__stack_public_client__',
            redirect_uri: 'http://localhost:3000/handler/oauth-callback',
            state: 's',
            grant_type: 'authorization_code',
            code_challenge: 'x'.repeat(43),
            code_challenge_method: 'S256',
            response_type: 'code',
          },
          email: 'ann@nowhere.example',
        },
      },
      'SSO_CONNECTION_NOT_FOUND',
    );
    assert.ok(listing.id && verified.id);
  });

  it('answers SSO_CONNECTION_NOT_FOUND for another team’s connection', async () => {
    const t = get();
    const other = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'Other' } });
    const mine = await create({ type: 'saml', idp_metadata_xml: idp.metadataXml });
    await t.refuses('sso.getConnection', p.server, { params: { team_id: other.id, connection_id: mine.id } }, 'SSO_CONNECTION_NOT_FOUND');
  });

  it('refreshes metadata older than 24 hours in the background pass, following a certificate rollover', async () => {
    const t = get();
    const created = await create({ type: 'saml', idp_metadata_url: idp.metadataUrl });
    const certificates = async () =>
      (
        await t.core.runtime.db
          .selectFrom('sso_connections')
          .select('idp_certificates')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).idp_certificates;
    const before = await certificates();
    await idp.rollOver();
    await refreshStaleMetadata(t.core.runtime);
    assert.equal(await certificates(), before, 'fresh metadata is not fetched again');
    t.clock.advance(25 * 3600 * 1000);
    await refreshStaleMetadata(t.core.runtime);
    assert.notEqual(await certificates(), before, 'the rolled-over certificate is stored');
    const row = await t.core.runtime.db
      .selectFrom('sso_connections')
      .select('metadata_fetched_at')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.metadata_fetched_at), t.clock.now());
  });
});

for (const dialect of ['sqlite'] as const) {
  it(`in production mode refuses a metadata URL or issuer on loopback with OAUTH_PROVIDER_URL_NOT_ALLOWED, fetching nothing [${dialect}]`, async () => {
    const t = await startTestCore(dialect, { environment: 'production' });
    const idp = await startSamlIdp();
    try {
      const p = await createCoreProject(t);
      const team = await t.call<{ id: string }>('teams.create', p.server, { body: { display_name: 'Corp' } });
      for (const body of [
        { type: 'saml', idp_metadata_url: idp.metadataUrl },
        { type: 'oidc', issuer_url: 'http://127.0.0.1:9/issuer', client_id: 'c', client_secret: 's' },
      ]) {
        await t.refuses('sso.createConnection', p.server, { params: { team_id: team.id }, body }, 'OAUTH_PROVIDER_URL_NOT_ALLOWED');
      }
    } finally {
      await idp.close();
      await t.close();
    }
  });
}
