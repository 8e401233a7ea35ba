import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

const PASSWORD = 'interop password 1';

for (const sdk of SDKS) {
  describeWithServer(`accounts through ${sdk.name}`, (get) => {
    it('signs up, signs in, reads and updates the user, and signs out with the client app', async () => {
      const server = get();
      const { clientApp, serverApp } = await sdkApps(server, sdk.module);
      const app = clientApp();
      const signUp = await app.signUpWithCredential({
        email: 'Interop@Example.com',
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(signUp.status, 'ok', JSON.stringify(signUp));

      const user = await app.getUser();
      assert.ok(user, 'signed-up user is signed in');
      assert.equal(user.primaryEmail, 'interop@example.com');
      assert.equal(user.hasPassword, true);
      assert.equal(user.isAnonymous, false);

      await user.setDisplayName('Interop User');
      await user.setClientMetadata({ theme: 'dark', n: 1 });
      const fromServer = await serverApp.getUser(user.id);
      assert.equal(fromServer.displayName, 'Interop User');
      assert.deepEqual(fromServer.clientMetadata, { theme: 'dark', n: 1 });

      await user.signOut();
      assert.equal(await app.getUser(), null);
      const sessions = await server.gatehouse.core.runtime.db
        .selectFrom('refresh_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      assert.equal(sessions.length, 0, 'sign-out revokes the session');

      const other = clientApp();
      const signIn = await other.signInWithCredential({ email: 'interop@example.com', password: PASSWORD, noRedirect: true });
      assert.equal(signIn.status, 'ok', JSON.stringify(signIn));
      const again = await other.getUser();
      assert.equal(again?.id, user.id);
      assert.equal(again?.displayName, 'Interop User');
      assert.deepEqual(again?.clientMetadata, { theme: 'dark', n: 1 });
    });

    it('returns typed errors for a wrong password, an unknown email and a duplicate email', async () => {
      const server = get();
      const { clientApp } = await sdkApps(server, sdk.module);
      const app = clientApp();
      assert.equal(
        (await app.signUpWithCredential({ email: 'dup@example.com', password: PASSWORD, noVerificationCallback: true, noRedirect: true }))
          .status,
        'ok',
      );
      const dup = await clientApp().signUpWithCredential({
        email: 'dup@example.com',
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(errorCodeOf(dup), 'USER_EMAIL_ALREADY_EXISTS');
      const wrong = await clientApp().signInWithCredential({ email: 'dup@example.com', password: 'not the password', noRedirect: true });
      assert.equal(errorCodeOf(wrong), 'EMAIL_PASSWORD_MISMATCH');
      const unknown = await clientApp().signInWithCredential({ email: 'nobody@example.com', password: PASSWORD, noRedirect: true });
      assert.equal(errorCodeOf(unknown), 'EMAIL_PASSWORD_MISMATCH');
      const short = await clientApp().signUpWithCredential({
        email: 'short@example.com',
        password: 'short',
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(errorCodeOf(short), 'PASSWORD_TOO_SHORT');
    });

    it('creates, lists, gets, updates and deletes users with the server app', async () => {
      const server = get();
      const { serverApp, clientApp } = await sdkApps(server, sdk.module);
      const created = await serverApp.createUser({
        primaryEmail: 'made@example.com',
        password: PASSWORD,
        primaryEmailAuthEnabled: true,
        displayName: 'Made',
        serverMetadata: { tier: 'gold' },
      });
      assert.equal(created.primaryEmail, 'made@example.com');
      assert.equal(created.displayName, 'Made');
      const second = await serverApp.createUser({ primaryEmail: 'second@example.com' });

      const list = await serverApp.listUsers();
      assert.deepEqual(list.map((u: { id: string }) => u.id).sort(), [created.id, second.id].sort());
      const page = await serverApp.listUsers({ limit: 1 });
      assert.equal(page.length, 1);
      assert.ok(page.nextCursor, 'a short page has a next cursor');
      const rest = await serverApp.listUsers({ limit: 1, cursor: page.nextCursor });
      assert.equal(rest.length, 1);
      assert.notEqual(rest[0].id, page[0].id);
      assert.deepEqual(
        (await serverApp.listUsers({ query: 'second' })).map((u: { id: string }) => u.id),
        [second.id],
      );

      const got = await serverApp.getUser(created.id);
      assert.deepEqual(got.serverMetadata, { tier: 'gold' });
      await got.update({ displayName: 'Renamed', serverMetadata: { tier: 'platinum' }, clientReadOnlyMetadata: { plan: 'pro' } });
      const updated = await serverApp.getUser(created.id);
      assert.equal(updated.displayName, 'Renamed');
      assert.deepEqual(updated.serverMetadata, { tier: 'platinum' });
      assert.deepEqual(updated.clientReadOnlyMetadata, { plan: 'pro' });

      // The password set by the server works for the client app.
      const app = clientApp();
      assert.equal((await app.signInWithCredential({ email: 'made@example.com', password: PASSWORD, noRedirect: true })).status, 'ok');

      await updated.delete();
      assert.equal(await serverApp.getUser(created.id), null);
    });

    it('creates an anonymous user on demand and upgrades it in place on password sign-up', async () => {
      const server = get();
      const { clientApp } = await sdkApps(server, sdk.module);
      const app = clientApp();
      assert.equal(await app.getUser(), null);
      const anon = await app.getUser({ or: 'anonymous' });
      assert.ok(anon, 'an anonymous user is created');
      assert.equal(anon.isAnonymous, true);
      assert.equal(await app.getUser(), null, 'anonymous users count as signed out by default');
      const up = await app.signUpWithCredential({
        email: 'was-anon@example.com',
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      assert.equal(up.status, 'ok', JSON.stringify(up));
      const user = await app.getUser();
      assert.equal(user?.id, anon.id);
      assert.equal(user?.isAnonymous, false);
      assert.equal(user?.primaryEmail, 'was-anon@example.com');
    });

    it('refreshes an expired access token through the token endpoint and retries', async () => {
      const server = get();
      const { clientApp, serverApp } = await sdkApps(server, sdk.module);
      const app = clientApp();
      assert.equal(
        (
          await app.signUpWithCredential({
            email: 'refresh@example.com',
            password: PASSWORD,
            noVerificationCallback: true,
            noRedirect: true,
          })
        ).status,
        'ok',
      );
      const user = await app.getUser();
      assert.ok(user);
      const before = (await user.currentSession.getTokens()).accessToken as string;

      server.clock.advance(11 * 60_000); // past the default 10-minute access-token lifetime
      const advancedTo = server.clock.now();
      await user.setDisplayName('After Expiry');

      assert.equal((await serverApp.getUser(user.id)).displayName, 'After Expiry');
      const after = (await user.currentSession.getTokens()).accessToken as string;
      assert.notEqual(after, before, 'the SDK holds a new access token');
      const session = await server.gatehouse.core.runtime.db
        .selectFrom('refresh_tokens')
        .select('last_used_at')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.ok(Number(session.last_used_at) >= advancedTo, 'the refresh happened after the clock moved');
    });
  });
}
