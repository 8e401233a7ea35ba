import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { coreBaseUrl } from '../../test/helpers/core-fixtures-b.ts';
import { describeWithCore, createCoreProject, internalCredentials as internal, type TestCore } from '../../test/helpers/core-client.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import type { Credentials } from '../index.ts';
import { dashboardSignUpState } from './index.ts';

/**
 * Dashboard first-run sign-up, in-process (test/helpers/core-client.ts). The host's
 * GATEHOUSE_DASHBOARD_SIGNUP=open reaches core as the `dashboardSignUpOpen` option; reading that
 * variable is server-bin/config.test.ts's.
 */

const password = 'correct horse battery staple';
const signUp = (t: TestCore, email: string, caller: Credentials = internal.client) =>
  t.call<{ user_id: string; access_token: string }>('authPassword.signUp', caller, { body: { email, password } });

/** What the host's setting says, as core reads it through `dashboardSignUpOpen`. */
let forcedOpen = false;

// The suite's core is shared by its tests, in order: the first test runs on a fresh core.
describeWithCore(
  'dashboard first-run sign-up',
  (get) => {
    it('lets the first owner sign up to the internal project, then refuses client sign-up with SIGN_UP_NOT_ENABLED', async () => {
      const t = get();
      assert.deepEqual(await dashboardSignUpState(t.core.runtime), { firstRun: true, signUpOpen: true, signUpStaysOpen: false });
      assert.ok((await signUp(t, 'owner@example.com')).user_id);
      assert.deepEqual(await dashboardSignUpState(t.core.runtime), { firstRun: false, signUpOpen: false, signUpStaysOpen: false });
      assert.equal(
        (
          await t.refuses(
            'authPassword.signUp',
            internal.client,
            { body: { email: 'stranger@example.com', password } },
            'SIGN_UP_NOT_ENABLED',
          )
        ).status,
        400,
      );
      assert.equal((await t.refuses('anonymous.signUp', internal.client, {}, 'SIGN_UP_NOT_ENABLED')).status, 400);
      // The owner still signs in.
      assert.ok(
        (await t.call<{ access_token: string }>('authPassword.signIn', internal.client, { body: { email: 'owner@example.com', password } }))
          .access_token,
      );
    });

    it('leaves users created with the server or admin key, and other projects, unaffected', async () => {
      const t = get();
      assert.ok(
        (
          await t.call<{ id: string }>('users.create', internal.server, {
            body: { primary_email: 'invited@example.com', primary_email_auth_enabled: true },
          })
        ).id,
      );
      assert.ok((await signUp(t, 'server-made@example.com', internal.server)).user_id);
      assert.ok((await signUp(t, 'admin-made@example.com', internal.admin)).user_id);
      const { client } = await createCoreProject(t);
      assert.ok((await signUp(t, 'app-user@example.com', client)).user_id);
      assert.ok(await t.call('anonymous.signUp', client));
    });

    it('lets an email with a pending invitation to a dashboard team sign up (owners invite others through their team)', async () => {
      const t = get();
      const owner = await t.call<{ items: Array<{ id: string }> }>('users.list', internal.server, {
        query: { query: 'owner@example.com' },
      });
      const team = await t.call<{ id: string }>('teams.create', internal.server, {
        body: { display_name: 'Core', creator_user_id: owner.items[0]!.id },
      });
      await t.call('teamInvitations.send', internal.server, {
        body: { team_id: team.id, email: 'invited-owner@example.com', callback_url: `${coreBaseUrl(t)}/handler/team-invitation` },
      });
      await t.refuses(
        'authPassword.signUp',
        internal.client,
        { body: { email: 'not-invited@example.com', password } },
        'SIGN_UP_NOT_ENABLED',
      );
      assert.ok((await signUp(t, 'Invited-Owner@Example.com')).user_id);
    });

    it('keeps sign-up open while the host says so (GATEHOUSE_DASHBOARD_SIGNUP=open)', async () => {
      const t = get();
      forcedOpen = true;
      try {
        assert.deepEqual(await dashboardSignUpState(t.core.runtime), { firstRun: false, signUpOpen: true, signUpStaysOpen: true });
        assert.ok((await signUp(t, 'second-owner@example.com')).user_id);
      } finally {
        forcedOpen = false;
      }
      await t.refuses('authPassword.signUp', internal.client, { body: { email: 'third@example.com', password } }, 'SIGN_UP_NOT_ENABLED');
    });

    it('still validates input and access before the rule', async () => {
      const t = get();
      assert.equal(
        (await t.refuses('authPassword.signUp', internal.client, { body: { email: 'x@example.com', password, extra: 1 } }, 'SCHEMA_ERROR'))
          .status,
        400,
      );
      assert.equal(
        (
          await t.refuses(
            'authPassword.signUp',
            { projectId: 'internal', accessType: 'server', secretServerKey: 'ssk_wrong' },
            { body: { email: 'x@example.com', password } },
            'INVALID_SECRET_SERVER_KEY',
          )
        ).status,
        401,
      );
    });
  },
  { dashboardSignUpOpen: () => forcedOpen },
);

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

describeWithCore(
  'dashboard first-run sign-up, one-time codes',
  (get) => {
    it('refuses a one-time-code sign-in that would create a second internal user, and still signs the owner in', async () => {
      const t = get();
      await t.call('projects.updateCurrent', internal.admin, { body: { config: { magic_link_enabled: true } } });
      const ownerEmail = uniqueEmail('otp-owner');
      await t.call('users.create', internal.server, {
        body: { primary_email: ownerEmail, primary_email_auth_enabled: true, primary_email_verified: true },
      });
      const codeFor = async (email: string) => {
        await t.call('authOtp.sendSignInCode', internal.client, {
          body: { email, callback_url: `${coreBaseUrl(t)}/handler/magic-link-callback` },
        });
        return codeFromEmail(await smtp.waitFor(email));
      };
      assert.equal(
        (
          await t.refuses(
            'authOtp.signIn',
            internal.client,
            { body: { code: await codeFor(uniqueEmail('otp-stranger')) } },
            'SIGN_UP_NOT_ENABLED',
          )
        ).status,
        400,
      );
      const ownerSignIn = await t.call<{ is_new_user: boolean }>('authOtp.signIn', internal.client, {
        body: { code: await codeFor(ownerEmail) },
      });
      assert.equal(ownerSignIn.is_new_user, false);
    });

    it('keeps an account that registered an invited address by password from creating projects until the invitation code proves the address (issue 12)', async () => {
      const t = get();
      const owner = await t.call<{ id: string }>('users.create', internal.server, {
        body: { primary_email: uniqueEmail('inv-owner'), primary_email_auth_enabled: true, primary_email_verified: true },
      });
      const team = await t.call<{ id: string }>('teams.create', internal.server, {
        body: { display_name: 'Core', creator_user_id: owner.id },
      });
      const invitee = uniqueEmail('invitee');
      await t.call('teamInvitations.send', internal.server, {
        body: { team_id: team.id, email: invitee, callback_url: `${coreBaseUrl(t)}/handler/team-invitation` },
      });
      const code = codeFromEmail(await smtp.waitFor(invitee));
      // Anyone may register the invited address by password while sign-up is closed...
      const squatter = await signUp(t, invitee);
      const caller = { ...internal.client, accessToken: squatter.access_token };
      // ...but without the emailed code the account cannot use the dashboard.
      assert.equal(
        (await t.refuses('projects.create', caller, { body: { display_name: 'Squat', owner_team_id: team.id } }, 'EMAIL_NOT_VERIFIED'))
          .status,
        400,
      );
      assert.deepEqual(await t.call('teamInvitations.accept', caller, { body: { code } }), {});
      assert.equal(
        (await t.call<{ primary_email_verified: boolean }>('users.get', internal.server, { params: { user_id: squatter.user_id } }))
          .primary_email_verified,
        true,
      );
      assert.ok((await t.call<{ id: string }>('projects.create', caller, { body: { display_name: 'Real', owner_team_id: team.id } })).id);
    });
  },
  { smtpUrl: smtp.url },
);
