import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import type { Credentials, InvokeInput } from '../index.ts';
import { uniqueEmail } from '../../test/helpers/smtp.ts';

/**
 * Primary email and contact channels as upstream's users and contact-channels
 * handlers answer (`users/crud.tsx`, `contact-channels/crud.tsx`, `lib/request-checks.tsx`).
 */

type Channel = { value: string; is_primary: boolean; is_verified: boolean; used_for_auth: boolean };
const channelsOf = async (t: TestCore, caller: Credentials, userId: string) =>
  ((await t.call<any>('contactChannels.list', caller, { query: { user_id: userId } })).items as Channel[])
    .map((c) => ({ value: c.value, is_primary: c.is_primary, is_verified: c.is_verified, used_for_auth: c.used_for_auth }))
    .sort((a, b) => a.value.localeCompare(b.value));

describeWithCore('primary email and contact channels as upstream', (get) => {
  it('keeps the old primary email as a non-primary channel when it changes, and demotes it when set to null', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    const user = await t.call<any>('users.create', p.server, {
      body: { primary_email: first, primary_email_verified: true, primary_email_auth_enabled: true },
    });

    const changed = await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email: second } });
    assert.equal(changed.primary_email, second);
    assert.deepEqual(
      await channelsOf(t, p.server, user.id),
      [
        { value: first, is_primary: false, is_verified: true, used_for_auth: true },
        { value: second, is_primary: true, is_verified: false, used_for_auth: true },
      ].sort((a, b) => a.value.localeCompare(b.value)),
    );

    const removed = await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email: null } });
    assert.equal(removed.primary_email, null);
    assert.equal(removed.primary_email_auth_enabled, false, 'removing the primary email turns email auth off');
    const after = await channelsOf(t, p.server, user.id);
    assert.deepEqual(
      after.map((c) => [c.value, c.is_primary]).sort(),
      [
        [first, false],
        [second, false],
      ].sort(),
    );

    // Making a non-primary channel the primary email again merges it, without a duplicate.
    assert.ok(await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email: first } }));
    const merged = await channelsOf(t, p.server, user.id);
    assert.equal(merged.filter((c) => c.value === first).length, 1);
    assert.equal(merged.find((c) => c.value === first)!.is_primary, true);
  });

  it("refuses email auth or verified without a primary email with upstream's 400 texts", async () => {
    const t = get();
    const p = await createCoreProject(t);
    await refusesWithStatus(
      t,
      'users.create',
      p.server,
      { body: { primary_email_auth_enabled: true } },
      'bad-request',
      'primary_email_auth_enabled cannot be true without primary_email',
    );
    const user = await t.call<any>('users.create', p.server, { body: {} });
    await refusesWithStatus(
      t,
      'users.update',
      p.server,
      { params: { user_id: user.id }, body: { primary_email_auth_enabled: true } },
      'bad-request',
      'primary_email_auth_enabled cannot be true without primary_email',
    );
    await refusesWithStatus(
      t,
      'users.update',
      p.server,
      { params: { user_id: user.id }, body: { primary_email_verified: true } },
      'bad-request',
      'primary_email_verified cannot be true without primary_email',
    );
    // false is a no-op without an email.
    assert.ok(await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email_auth_enabled: false } }));
  });

  it("answers a duplicate channel and a missing channel with upstream's 400s, and is_primary on create demotes the old primary", async () => {
    const t = get();
    const p = await createCoreProject(t);
    const email = uniqueEmail('dup');
    const user = await t.call<any>('users.create', p.server, { body: { primary_email: email } });
    const other = uniqueEmail('other');
    assert.equal(
      (
        await t.call<any>('contactChannels.create', p.server, {
          body: { user_id: user.id, type: 'email', value: other, used_for_auth: false },
        })
      ).value,
      other,
    );
    for (const value of [email, other]) {
      await refusesWithStatus(
        t,
        'contactChannels.create',
        p.server,
        { body: { user_id: user.id, type: 'email', value, used_for_auth: false } },
        'bad-request',
        'Contact channel already exists',
      );
    }
    const missing = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';
    await refusesWithStatus(
      t,
      'contactChannels.update',
      p.server,
      { params: { user_id: user.id, contact_channel_id: missing }, body: { value: uniqueEmail() } },
      'bad-request',
      'Contact channel not found',
    );
    await refusesWithStatus(
      t,
      'contactChannels.delete',
      p.server,
      { params: { user_id: user.id, contact_channel_id: missing } },
      'bad-request',
      'Contact channel not found',
    );

    const third = uniqueEmail('third');
    const primary = await t.call<any>('contactChannels.create', p.server, {
      body: { user_id: user.id, type: 'email', value: third, used_for_auth: true, is_primary: true },
    });
    assert.equal(primary.is_primary, true);
    const channels = await channelsOf(t, p.server, user.id);
    assert.deepEqual(
      channels.filter((c) => c.is_primary).map((c) => c.value),
      [third],
    );
    assert.equal(channels.find((c) => c.value === email)!.is_primary, false);
    assert.equal((await t.call<any>('users.get', p.server, { params: { user_id: user.id } })).primary_email, third);
  });

  it('applies email uniqueness only among auth-enabled addresses', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const shared = uniqueEmail('shared');
    assert.equal(
      (await t.call<any>('users.create', p.server, { body: { primary_email: shared, primary_email_auth_enabled: false } })).primary_email,
      shared,
    );
    assert.equal(
      (await t.call<any>('users.create', p.server, { body: { primary_email: shared, primary_email_auth_enabled: false } })).primary_email,
      shared,
    );
    assert.equal(
      (await t.call<any>('users.create', p.server, { body: { primary_email: shared, primary_email_auth_enabled: true } })).primary_email,
      shared,
    );
    assert.equal(
      (
        await t.refuses(
          'users.create',
          p.server,
          { body: { primary_email: shared, primary_email_auth_enabled: true } },
          'USER_EMAIL_ALREADY_EXISTS',
        )
      ).status,
      409,
    );
  });

  it("keeps every channel's id through promotion and demotion, and a promoted channel keeps its verified flag", async () => {
    const t = get();
    const p = await createCoreProject(t);
    const first = uniqueEmail('first');
    const user = await t.call<any>('users.create', p.server, { body: { primary_email: first, primary_email_auth_enabled: true } });
    const idOf = async (value: string) =>
      (
        (await t.call<any>('contactChannels.list', p.server, { query: { user_id: user.id } })).items as Array<{ id: string; value: string }>
      ).find((c) => c.value === value)?.id;
    const firstId = await idOf(first);
    const second = uniqueEmail('second');
    const made = await t.call<any>('contactChannels.create', p.server, {
      body: { user_id: user.id, type: 'email', value: second, used_for_auth: false, is_verified: true },
    });

    // PATCH /users primary_email = an existing channel: upstream promotes that channel.
    const promoted = await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email: second } });
    assert.equal(promoted.primary_email_verified, true, 'the verified flag comes with the channel');
    assert.equal(promoted.primary_email_auth_enabled, true, 'sign-in follows the old primary email');
    assert.equal(await idOf(second), made.id);
    assert.equal(await idOf(first), firstId, 'the demoted primary keeps its id');

    // PATCH /contact-channels is_primary: true, then false.
    const back = await t.call<any>('contactChannels.update', p.server, {
      params: { user_id: user.id, contact_channel_id: firstId! },
      body: { is_primary: true },
    });
    assert.equal(back.id, firstId);
    assert.equal(back.is_primary, true);
    assert.equal(await idOf(second), made.id);
    const demoted = await t.call<any>('contactChannels.update', p.server, {
      params: { user_id: user.id, contact_channel_id: firstId! },
      body: { is_primary: false },
    });
    assert.deepEqual([demoted.id, demoted.is_primary], [firstId, false]);
    assert.equal((await t.call<any>('users.get', p.server, { params: { user_id: user.id } })).primary_email, null);

    // A new primary email is a new channel; the ids of the others stay.
    const third = uniqueEmail('third');
    const created = await t.call<any>('contactChannels.create', p.server, {
      body: { user_id: user.id, type: 'email', value: third, used_for_auth: false, is_primary: true },
    });
    const fourth = uniqueEmail('fourth');
    assert.ok(await t.call<any>('users.update', p.server, { params: { user_id: user.id }, body: { primary_email: fourth } }));
    const ids = new Map(
      (
        (await t.call<any>('contactChannels.list', p.server, { query: { user_id: user.id } })).items as Array<{ id: string; value: string }>
      ).map((c) => [c.value, c.id]),
    );
    assert.equal(ids.size, 4);
    assert.equal(new Set(ids.values()).size, 4, 'no two channels share an id');
    assert.deepEqual([ids.get(first), ids.get(second), ids.get(third)], [firstId, made.id, created.id]);
    assert.equal(
      (await t.call<any>('contactChannels.get', p.server, { params: { user_id: user.id, contact_channel_id: ids.get(fourth)! } }))
        .is_primary,
      true,
    );
  });

  it('refuses a primary email that another user signs in with through a non-primary channel', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const taken = uniqueEmail('taken');
    const owner = await t.call<any>('users.create', p.server, { body: {} });
    assert.ok(
      await t.call<any>('contactChannels.create', p.server, {
        body: { user_id: owner.id, type: 'email', value: taken, used_for_auth: true },
      }),
    );
    const other = await t.call<any>('users.create', p.server, {
      body: { primary_email: uniqueEmail('other'), primary_email_auth_enabled: true },
    });
    assert.equal(
      (
        await t.refuses(
          'users.update',
          p.server,
          { params: { user_id: other.id }, body: { primary_email: taken } },
          'USER_EMAIL_ALREADY_EXISTS',
        )
      ).status,
      409,
    );
    // Without email sign-in the address may be shared.
    assert.ok(
      await t.call<any>('users.update', p.server, {
        params: { user_id: other.id },
        body: { primary_email: taken, primary_email_auth_enabled: false },
      }),
    );
  });

  it('derives auth_with_email from a password or OTP sign-in, not from the primary email (upstream userPrismaToCrud)', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const emailOnly = await t.call<any>('users.create', p.server, {
      body: { primary_email: uniqueEmail('e'), primary_email_auth_enabled: true },
    });
    assert.equal(emailOnly.auth_with_email, false);
    const otp = await t.call<any>('users.update', p.server, { params: { user_id: emailOnly.id }, body: { otp_auth_enabled: true } });
    assert.equal(otp.auth_with_email, true);
    const withPassword = await t.call<any>('users.create', p.server, {
      body: { primary_email: uniqueEmail('pw'), primary_email_auth_enabled: true, password: 'a-long-passphrase-42' },
    });
    assert.equal(withPassword.auth_with_email, true);
    const noPassword = await t.call<any>('users.update', p.server, { params: { user_id: withPassword.id }, body: { password: null } });
    assert.equal(noPassword.auth_with_email, false);
  });

  it("accepts upstream's legacy address syntax for stored addresses, and keeps the strict rule for sign-up", async () => {
    const t = get();
    const p = await createCoreProject(t);
    const tag = uniqueEmail('x').split('@')[0]!;
    for (const address of [`${tag}.@example.com`, `${tag}..b@example.com`, `.${tag}@example.com`, `${tag}@localhost`, `${tag}@intranet`]) {
      const user = await t.call<any>('users.create', p.server, { body: { primary_email: address } });
      assert.equal(user.primary_email, address);
      const channel = await t.call<any>('contactChannels.create', p.server, {
        body: { user_id: user.id, type: 'email', value: `other-${address}`, used_for_auth: false },
      });
      assert.equal(channel.value, `other-${address}`);
    }
    for (const address of ['not-an-email', 'a b@example.com', 'a@-example.com', 'a@example..com', '@example.com']) {
      assert.equal((await t.refuses('users.create', p.server, { body: { primary_email: address } }, 'SCHEMA_ERROR')).status, 400);
    }
    assert.equal(
      (
        await t.refuses(
          'authPassword.signUp',
          p.client,
          { body: { email: `${tag}@localhost`, password: 'a-long-passphrase-42' } },
          'SCHEMA_ERROR',
        )
      ).status,
      400,
    );
  });

  it("answers another user's channels and unknown users as upstream's contact-channels handlers do", async () => {
    const t = get();
    const p = await createCoreProject(t);
    const signUp = async () => {
      const res = await t.call<any>('authPassword.signUp', p.client, {
        body: { email: uniqueEmail('cc'), password: 'a-long-passphrase-42' },
      });
      return { id: res.user_id as string, caller: { ...p.client, accessToken: res.access_token as string } };
    };
    const alice = await signUp();
    const bob = await signUp();
    const bobChannel = (await t.call<any>('contactChannels.list', p.server, { query: { user_id: bob.id } })).items[0].id as string;
    const channel = { user_id: bob.id, contact_channel_id: bobChannel };
    const cases: Array<[string, InvokeInput, string]> = [
      ['contactChannels.list', { query: { user_id: bob.id } }, 'Client can only list contact channels for their own user.'],
      ['contactChannels.get', { params: channel }, 'Client can only read contact channels for their own user.'],
      [
        'contactChannels.create',
        { body: { user_id: bob.id, type: 'email', value: uniqueEmail(), used_for_auth: false } },
        'Client can only create contact channels for their own user.',
      ],
      [
        'contactChannels.update',
        { params: channel, body: { used_for_auth: false } },
        'Client can only update contact channels for their own user.',
      ],
      ['contactChannels.delete', { params: channel }, 'Client can only delete contact channels for their own user.'],
    ];
    for (const [operationId, input, text] of cases) await refusesWithStatus(t, operationId, alice.caller, input, 'forbidden', text);
    const nobody = '7b0e5d5e-8f0a-4c4e-9a43-2f1d1b4f9a10';
    assert.deepEqual(await t.call<any>('contactChannels.list', p.server, { query: { user_id: nobody } }), {
      items: [],
      is_paginated: false,
    });
    const nobodys = { user_id: nobody, contact_channel_id: bobChannel };
    await refusesWithStatus(t, 'contactChannels.get', p.server, { params: nobodys }, 'not-found', 'Contact channel not found.');
    await refusesWithStatus(
      t,
      'contactChannels.update',
      p.server,
      { params: nobodys, body: { used_for_auth: false } },
      'bad-request',
      'Contact channel not found',
    );
    await refusesWithStatus(t, 'contactChannels.delete', p.server, { params: nobodys }, 'bad-request', 'Contact channel not found');
  });
});
