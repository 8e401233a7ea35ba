import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { act, button, captureAssign, click, flush, input, setUrl, type, waitFor, waitForText } from './test-dom.tsx';
import { ClientApp } from '../sdk/client-app.ts';
import { Component, Suspense, type ReactNode } from 'react';
import { useUser } from '../sdk/react.tsx';
import type { TransportRequest } from '../sdk/transport.ts';
import { memoryTokenStore } from '../sdk/tokens.ts';
import { CapabilitiesContext } from './common.tsx';
import { Secret } from 'otpauth';
import { totpForStep } from '../sdk/totp.ts';
import { MFA_ATTEMPT_KEY } from '../sdk/client-app.ts';
import {
  AccountSettings,
  CliAuthConfirm,
  EmailVerification,
  ErrorPage,
  ForgotPassword,
  Handler,
  MagicLinkCallback,
  MagicLinkSignIn,
  MfaPage,
  OAuthButtonGroup,
  OAuthCallback,
  PasskeyButton,
  PasswordReset,
  SelectedTeamSwitcher,
  SignIn,
  SignOut,
  SignUp,
  TeamInvitation,
  UserButton,
} from './index.ts';

import { PROJECT, TOKENS, USER, makeApp, show } from './component-test-app.tsx';

describe('SignIn', () => {
  it('shows a loading state until the project arrives, then the branded form', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    // Hold the project request until released.
    const slow = makeApp();
    const slowApp = new ClientApp({
      projectId: 'internal',
      tokenStore: 'memory',
      redirectMethod: 'none',
      transport: async (req) => {
        await gate;
        return slow.transport(req);
      },
    });
    const c = await show(slowApp, <SignIn />);
    assert.ok(c.querySelector('[role=status]'), 'a spinner while loading');
    assert.match(c.textContent ?? '', /Loading/);
    release();
    await waitForText(c, 'Acme Auth');
    assert.ok(input(c, 'Email'));
    assert.ok(input(c, 'Password'));
    assert.match(c.textContent ?? '', /Sign in with GitHub/);
    assert.equal(c.querySelector('h1')?.textContent, 'Sign in to your account');
  });

  it('validates input on the client before calling the server', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <SignIn />);
    await waitForText(c, 'Email & password');
    await click(c, 'Sign in');
    assert.match(c.textContent ?? '', /Please enter your email address\./);
    assert.equal(transport.requests.filter((r) => r.path === '/auth/password/sign-in').length, 0);
    assert.equal(input(c, 'Email').getAttribute('aria-invalid'), 'true');
  });

  it('shows the server error for a wrong password', async () => {
    const { app } = makeApp((req) =>
      req.path === '/auth/password/sign-in' ? { status: 400, knownError: 'EMAIL_PASSWORD_MISMATCH' } : undefined,
    );
    const c = await show(app, <SignIn />);
    await waitForText(c, 'Email & password');
    await type(c, 'Email', 'ada@example.com');
    await type(c, 'Password', 'wrong-password');
    await click(c, 'Sign in');
    await waitForText(c, 'Wrong e-mail or password.');
    assert.ok(c.querySelector('[role=alert]'));
  });

  it('signs in, stores the tokens and redirects to after_auth_return_to', async () => {
    setUrl('/handler/sign-in?after_auth_return_to=%2Fdashboard%3Ftab%3D1');
    const { app, visited, transport } = makeApp((req) => (req.path === '/auth/password/sign-in' ? { json: TOKENS } : undefined));
    const c = await show(app, <SignIn />);
    await waitForText(c, 'Email & password');
    await type(c, 'Email', 'ada@example.com');
    await type(c, 'Password', 'correct-horse');
    await click(c, 'Sign in');
    await flush();
    assert.deepEqual(JSON.parse(transport.requests.find((r) => r.path === '/auth/password/sign-in')!.body!), {
      email: 'ada@example.com',
      password: 'correct-horse',
    });
    assert.equal(app.session?.tokens().refreshToken, 'rt');
    assert.deepEqual(visited, ['/dashboard?tab=1']);
    setUrl('/handler/sign-in');
  });

  it('tells a signed-in user so', async () => {
    const { app } = makeApp(undefined, true);
    const c = await show(app, <SignIn />);
    await waitForText(c, 'You are already signed in.');
  });
});

describe('SignUp', () => {
  it('shows the password rules before the first attempt and checks them without calling the server', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Use 8 to 70 characters.');
    const pw = input(c, 'Password');
    assert.match(pw.getAttribute('aria-describedby') ?? '', /\S/, 'the rules describe the field');
    assert.equal(c.querySelectorAll('input[type=password]').length, 1, 'no repeated-password field');
    await type(c, 'Email', 'new@example.com');
    await type(c, 'Password', 'short');
    await click(c, 'Sign up');
    await waitForText(c, 'Password must be at least 8 characters long.');
    assert.equal(transport.requests.filter((r) => r.path === '/auth/password/sign-up').length, 0);
    assert.equal(pw.getAttribute('aria-invalid'), 'true');
    assert.equal(document.activeElement, pw, 'focus goes to the invalid field');
  });

  it('focuses the first invalid field and keeps a single alert', async () => {
    const { app } = makeApp();
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Use 8 to 70 characters.');
    await click(c, 'Sign up');
    await waitForText(c, 'Please enter your email address.');
    assert.equal(document.activeElement, input(c, 'Email'), 'the first invalid field, not the last');
    assert.equal(input(c, 'Password').getAttribute('aria-invalid'), 'true');
    assert.ok(c.querySelectorAll('[role=alert]').length <= 1, 'at most one alert');
    const described = input(c, 'Email').getAttribute('aria-describedby')!.split(' ');
    assert.ok(
      described.some((id) => c.querySelector(`[id="${id}"]`)?.textContent === 'Please enter your email address.'),
      'the error is tied to its field',
    );
  });

  it('shows a taken email at the email field, tied to it', async () => {
    const { app } = makeApp((req) =>
      req.path === '/auth/password/sign-up' ? { status: 409, knownError: 'USER_EMAIL_ALREADY_EXISTS' } : undefined,
    );
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Use 8 to 70 characters.');
    await type(c, 'Email', 'taken@example.com');
    await type(c, 'Password', 'long-enough-password');
    await click(c, 'Sign up');
    await waitForText(c, 'A user with this email address already exists.');
    const email = input(c, 'Email');
    assert.equal(email.getAttribute('aria-invalid'), 'true');
    assert.equal(document.activeElement, email);
    assert.equal(c.querySelectorAll('[role=alert]').length, 0, 'a field error, not a form alert');
  });

  it('toggles the password between hidden and shown', async () => {
    const { app } = makeApp();
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Show password');
    const toggle = button(c, 'Show password');
    assert.equal(toggle.getAttribute('aria-pressed'), 'false');
    await act(async () => {
      toggle.click();
    });
    assert.equal(input(c, 'Password').type, 'text');
    assert.equal(toggle.getAttribute('aria-pressed'), 'true');
  });

  it('shows PASSWORD_TOO_SHORT with the minimum length', async () => {
    const { app } = makeApp((req) =>
      req.path === '/auth/password/sign-up'
        ? { status: 400, knownError: 'PASSWORD_TOO_SHORT', json: { details: { min_length: 8 } } }
        : undefined,
    );
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Use 8 to 70 characters.');
    await type(c, 'Email', 'new@example.com');
    await type(c, 'Password', 'long-enough-password');
    await click(c, 'Sign up');
    await waitForText(c, 'Password must be at least 8 characters long.');
  });

  it('signs up with a verification callback URL and redirects', async () => {
    const { app, transport, visited } = makeApp((req) =>
      req.path === '/auth/password/sign-up' ? { json: { ...TOKENS, is_new_user: true } } : undefined,
    );
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Use 8 to 70 characters.');
    await type(c, 'Email', 'new@example.com');
    await type(c, 'Password', 'long-enough-password');
    await click(c, 'Sign up');
    await flush();
    const body = JSON.parse(transport.requests.find((r) => r.path === '/auth/password/sign-up')!.body!);
    assert.equal(body.verification_callback_url, 'http://localhost:3000/handler/email-verification');
    assert.deepEqual(visited, ['/']);
  });

  it('says so when sign-up is disabled', async () => {
    const { app } = makeApp((req) =>
      req.path === '/projects/current' ? { json: { ...PROJECT, config: { ...PROJECT.config, sign_up_enabled: false } } } : undefined,
    );
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Sign-up is not enabled for this project.');
  });
});

describe('MagicLinkSignIn', () => {
  it('sends the link, then signs in with the code and the nonce', async () => {
    const { app, transport } = makeApp((req) =>
      req.path === '/auth/otp/send-sign-in-code'
        ? { json: { nonce: 'nonce123' } }
        : req.path === '/auth/otp/sign-in'
          ? { json: TOKENS }
          : undefined,
    );
    const c = await show(app, <MagicLinkSignIn />);
    await type(c, 'Email', 'ada@example.com');
    await click(c, 'Send me a sign-in link');
    await waitForText(c, 'We sent a sign-in link');
    await type(c, 'Code', 'ABC123');
    await click(c, 'Sign in with code');
    await flush();
    assert.equal(JSON.parse(transport.requests.find((r) => r.path === '/auth/otp/sign-in')!.body!).code, 'abc123nonce123');
    assert.equal(app.session?.tokens().refreshToken, 'rt');
  });
});

describe('ForgotPassword and PasswordReset', () => {
  it('confirms that the reset email was sent', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <ForgotPassword />);
    await type(c, 'Email', 'ada@example.com');
    await click(c, 'Send reset link');
    await waitForText(c, 'we sent it a link to reset the password');
    assert.equal(
      JSON.parse(transport.requests.find((r) => r.path === '/auth/password/send-reset-code')!.body!).callback_url,
      'http://localhost:3000/handler/password-reset',
    );
  });

  it('sends the reset email again, or goes back to change the address, from the "check your email" step', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <ForgotPassword />);
    await type(c, 'Email', 'ada@example.com');
    await click(c, 'Send reset link');
    await waitForText(c, 'we sent it a link to reset the password');
    await click(c, 'Send it again');
    await waitFor(
      () => transport.requests.filter((r) => r.path === '/auth/password/send-reset-code').length === 2,
      () => 'no second reset email',
    );
    await click(c, 'Use another email');
    await type(c, 'Email', 'grace@example.com');
    await click(c, 'Send reset link');
    await waitForText(c, 'If an account exists for grace@example.com');
    const sent = transport.requests.filter((r) => r.path === '/auth/password/send-reset-code').map((r) => JSON.parse(r.body!).email);
    assert.deepEqual(sent, ['ada@example.com', 'ada@example.com', 'grace@example.com']);
  });

  it('shows an expired code as an error', async () => {
    const { app } = makeApp((req) =>
      req.path === '/auth/password/reset/check-code' ? { status: 400, knownError: 'VERIFICATION_CODE_EXPIRED' } : undefined,
    );
    const c = await show(app, <PasswordReset code="abc" />);
    await waitForText(c, 'This link or code has expired.');
  });

  it('checks the code, then resets the password', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <PasswordReset code="abc" />);
    await waitForText(c, 'New password');
    await type(c, 'New password', 'brand-new-password');
    await click(c, 'Reset password');
    await waitForText(c, 'Your password has been reset.');
    assert.deepEqual(JSON.parse(transport.requests.find((r) => r.path === '/auth/password/reset')!.body!), {
      code: 'abc',
      password: 'brand-new-password',
    });
  });
});

describe('EmailVerification', () => {
  it('verifies the code once and says so', async () => {
    const { app, transport } = makeApp();
    const c = await show(app, <EmailVerification code="the-code" />);
    await waitForText(c, 'Your email has been verified.');
    assert.equal(transport.requests.filter((r) => r.path === '/contact-channels/verify').length, 1);
  });

  it('shows a used code as an error', async () => {
    const { app } = makeApp((req) =>
      req.path === '/contact-channels/verify' ? { status: 409, knownError: 'VERIFICATION_CODE_ALREADY_USED' } : undefined,
    );
    const c = await show(app, <EmailVerification code="the-code" />);
    await waitForText(c, 'This link or code has already been used.');
  });
});

describe('AccountSettings', () => {
  it('redirects to sign-in when nobody is signed in', async () => {
    const { app, visited } = makeApp();
    await show(app, <AccountSettings />);
    await flush();
    assert.equal(visited.length, 1);
    assert.match(visited[0]!, /^\/handler\/sign-in\?after_auth_return_to=/);
  });

  it('shows the profile with the verified email and saves a new display name', async () => {
    const { app, transport } = makeApp(
      (req) =>
        req.path.startsWith('/contact-channels') && req.method === 'GET'
          ? {
              json: {
                items: [{ id: 'c1', type: 'email', value: 'ada@example.com', is_verified: true, is_primary: true, used_for_auth: true }],
              },
            }
          : undefined,
      true,
    );
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Display name');
    assert.equal(c.querySelector('[data-testid=primary-email-status]')?.textContent, 'Verified');
    await waitForText(c, 'Primary');
    assert.equal(input(c, 'Display name').value, 'Ada');
    await type(c, 'Display name', 'Ada Lovelace');
    await click(c, 'Save');
    await waitForText(c, 'Saved.');
    const patch = transport.requests.find((r) => r.method === 'PATCH' && r.path === '/users/me');
    assert.deepEqual(JSON.parse(patch!.body!), { display_name: 'Ada Lovelace' });
  });

  it('keeps a failing section to itself', async () => {
    const { app } = makeApp(
      (req) => (req.path.startsWith('/emails/notification-preference') ? { status: 404, text: 'not here' } : undefined),
      true,
    );
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'The request could not be completed.');
    assert.equal(/404|failed with|notification-preference/.test(c.textContent ?? ''), false, 'no transport details');
    assert.ok(input(c, 'Display name'), 'the other sections still render');
    assert.ok(c.textContent?.includes('Try again'));
  });

  it('shows a wrong current password at that field', async () => {
    const { app } = makeApp(
      (req) => (req.path === '/auth/password/update' ? { status: 400, knownError: 'PASSWORD_CONFIRMATION_MISMATCH' } : undefined),
      true,
    );
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Current password');
    await type(c, 'Current password', 'old-password');
    await type(c, 'New password', 'new-password-1');
    await click(c, 'Change password');
    await waitForText(c, 'The current password is not correct.');
    assert.equal(input(c, 'Current password').getAttribute('aria-invalid'), 'true');
    assert.equal(document.activeElement, input(c, 'Current password'));
  });

  it('offers sign-out, and a way back to the app only when there is one', async () => {
    const { app, transport, visited } = makeApp(undefined, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Display name');
    const back = c.querySelector('[data-testid=back-to-app]');
    assert.equal(back?.getAttribute('href'), '/', 'back to the app home');
    await click(c, 'Sign out');
    await flush();
    assert.ok(transport.requests.some((r) => r.method === 'DELETE' && r.path === '/auth/sessions/current'));
    assert.equal(visited[0], '/', 'after sign-out: the app home');
    const noApp = new ClientApp({
      projectId: 'internal',
      transport: makeApp(undefined, true).transport,
      tokenStore: memoryTokenStore({ accessToken: TOKENS.access_token, refreshToken: 'rt' }),
      redirectMethod: 'none',
      urls: { handler: '/h', home: '/h/account-settings' },
    });
    const c2 = await show(noApp, <AccountSettings />);
    await waitForText(c2, 'Display name');
    assert.equal(c2.querySelector('[data-testid=back-to-app]'), null, 'no "back to the app" without an app');
  });

  it('keeps what was typed when a background refetch fails', async () => {
    let failMe = false;
    const { app } = makeApp(
      (req) => (failMe && req.path === '/users/me' && req.method === 'GET' ? { status: 500, text: 'boom' } : undefined),
      true,
    );
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Display name');
    await type(c, 'Display name', 'Half typed');
    failMe = true;
    await act(async () => {
      await app.cache.refresh('/users/me').catch(() => {});
    });
    await flush();
    assert.equal(input(c, 'Display name').value, 'Half typed', 'the form stays with its text');
    assert.equal(/Something went wrong|Try again/.test(c.textContent ?? ''), false, c.textContent ?? '');
  });
});

describe('UserButton', () => {
  it('offers sign-in when signed out', async () => {
    const { app } = makeApp();
    const c = await show(app, <UserButton />);
    await waitForText(c, 'Sign in');
    assert.match(c.querySelector('a')?.getAttribute('href') ?? '', /^\/handler\/sign-in/);
  });

  it('closes the menu on Tab and on a press outside, and its spoken name includes its text', async () => {
    const { app } = makeApp(undefined, true);
    const c = await show(app, <UserButton showUserInfo />);
    await waitForText(c, 'Ada');
    const trigger = c.querySelector('button[aria-haspopup=menu]') as HTMLButtonElement;
    assert.equal(trigger.getAttribute('aria-label'), null, 'the name comes from the visible text');
    assert.match(trigger.textContent ?? '', /Ada, Account menu$/, 'visible name first, then what it opens');
    await act(async () => {
      trigger.click();
    });
    await flush();
    await act(async () => {
      c.querySelector('[role=menu]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    });
    assert.equal(c.querySelector('[role=menu]'), null, 'Tab closes the menu');
    await act(async () => {
      trigger.click();
    });
    await flush();
    assert.ok(c.querySelector('[role=menu]'));
    await act(async () => {
      document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    assert.equal(c.querySelector('[role=menu]'), null, 'a press outside closes the menu');
  });

  it('opens a keyboard menu with account settings and sign out', async () => {
    const { app, visited } = makeApp(undefined, true);
    const c = await show(app, <UserButton showUserInfo />);
    await waitForText(c, 'Ada');
    const trigger = c.querySelector('button[aria-haspopup=menu]') as HTMLButtonElement;
    assert.equal(trigger.getAttribute('aria-expanded'), 'false');
    await act(async () => {
      trigger.click();
    });
    await flush();
    assert.equal(trigger.getAttribute('aria-expanded'), 'true');
    assert.equal(document.activeElement?.textContent, 'Account settings', 'focus moves into the menu');
    await act(async () => {
      c.querySelector('[role=menu]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    assert.equal(c.querySelector('[role=menu]'), null);
    await act(async () => {
      trigger.click();
    });
    await click(c, 'Sign out');
    await flush();
    assert.deepEqual(visited, ['/']);
    assert.equal(app.session?.tokens().refreshToken, null);
  });
});

describe('SelectedTeamSwitcher and TeamInvitation', () => {
  it('lists the teams and selects one', async () => {
    const { app, transport } = makeApp(
      (req) =>
        req.path === '/teams?user_id=me'
          ? {
              json: {
                items: [
                  { id: 't1', display_name: 'Team One', profile_image_url: null, client_metadata: {}, client_read_only_metadata: {} },
                  { id: 't2', display_name: 'Team Two', profile_image_url: null, client_metadata: {}, client_read_only_metadata: {} },
                ],
              },
            }
          : undefined,
      true,
    );
    const c = await show(app, <SelectedTeamSwitcher />);
    await waitForText(c, 'Team Two');
    const select = c.querySelector('select') as HTMLSelectElement;
    assert.equal(select.value, 't1');
    await act(async () => {
      select.value = 't2';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    assert.deepEqual(JSON.parse(transport.requests.find((r) => r.method === 'PATCH')!.body!), { selected_team_id: 't2' });
  });

  it('shows the team of an invitation and joins it', async () => {
    const { app, transport } = makeApp(
      (req) => (req.path === '/team-invitations/accept/details' ? { json: { team_display_name: 'Rocket' } } : undefined),
      true,
    );
    const c = await show(app, <TeamInvitation code="inv" />);
    await waitForText(c, 'Rocket');
    await click(c, 'Join Rocket');
    await waitForText(c, 'You joined Rocket.');
    assert.ok(transport.requests.some((r) => r.path === '/team-invitations/accept'));
  });

  it('keeps the invitation in both the sign-in and the create-an-account links of a signed-out invitee', async () => {
    setUrl('/handler/team-invitation?code=inv123');
    const { app } = makeApp();
    const c = await show(app, <TeamInvitation />);
    await waitForText(c, 'to accept the invitation');
    const back = '/handler/team-invitation?code=inv123';
    for (const name of ['sign in', 'create an account']) {
      const link = Array.from(c.querySelectorAll('a')).find((a) => a.textContent === name)!;
      assert.equal(new URL(link.getAttribute('href')!, 'http://x').searchParams.get('after_auth_return_to'), back, name);
    }
    setUrl('/handler/sign-in');
  });

  it('shows an invalid invitation code as an error', async () => {
    const { app } = makeApp(
      (req) => (req.path === '/team-invitations/accept/details' ? { status: 404, knownError: 'VERIFICATION_CODE_NOT_FOUND' } : undefined),
      true,
    );
    const c = await show(app, <TeamInvitation code="bad" />);
    await waitForText(c, 'This link or code is not valid.');
  });
});

describe('MfaPage, CliAuthConfirm, ErrorPage and Handler', () => {
  it('MFA: checks the format, then shows INVALID_TOTP_CODE', async () => {
    const { app } = makeApp((req) => (req.path === '/auth/mfa/sign-in' ? { status: 400, knownError: 'INVALID_TOTP_CODE' } : undefined));
    const c = await show(app, <MfaPage attemptCode="attempt" />);
    await type(c, 'Authentication code', '12');
    await click(c, 'Verify');
    await waitForText(c, 'Enter the 6-digit code');
    await type(c, 'Authentication code', '123456');
    await click(c, 'Verify');
    await waitForText(c, 'The code is not correct.');
  });

  it('CLI: asks signed-out users to sign in, and confirms for signed-in ones', async () => {
    const signedOut = makeApp();
    const c1 = await show(signedOut.app, <CliAuthConfirm loginCode="lc" />);
    await waitForText(c1, 'to authorize the command-line login');
    const { app, transport } = makeApp(undefined, true);
    const c = await show(app, <CliAuthConfirm loginCode="lc" />);
    await waitForText(c, 'ada@example.com');
    await click(c, 'Authorize');
    await waitForText(c, 'The command line is now signed in.');
    assert.deepEqual(JSON.parse(transport.requests.find((r) => r.path === '/auth/cli/complete')!.body!), {
      login_code: 'lc',
      refresh_token: 'rt',
    });
  });

  it('ErrorPage shows a fixed message for a known code and never text from the address', async () => {
    const { app } = makeApp();
    const c = await show(app, <ErrorPage errorCode="OUTER_OAUTH_TIMEOUT" />);
    await waitForText(c, 'The sign-in with the provider took too long.');
    assert.match(c.textContent ?? '', /OUTER_OAUTH_TIMEOUT/);
    setUrl('/handler/error?errorCode=%3Cb%3EPHISH%3C/b%3E&message=Your%20account%20is%20locked.%20Call%20555-0100');
    const c2 = await show(app, <ErrorPage />);
    await waitForText(c2, 'An unknown error occurred.');
    assert.equal(/locked|555|PHISH/.test(c2.textContent ?? ''), false, c2.textContent ?? '');
    setUrl('/handler/error?errorCode=SOMETHING_NEW&message=Call%20us');
    const c3 = await show(app, <ErrorPage />);
    await waitForText(c3, 'An unknown error occurred.');
    assert.equal(/Call us/.test(c3.textContent ?? ''), false);
    setUrl('/handler/sign-in');
  });

  it('renders every page in the locale the app chose', async () => {
    const { app } = makeApp();
    const c = await show(app, <SignUp locale="de-AT" />);
    await waitForText(c, 'Neues Konto erstellen');
    assert.ok(input(c, 'E-Mail'));
    await click(c, 'Registrieren');
    await waitForText(c, 'Bitte geben Sie Ihre E-Mail-Adresse ein.');
    assert.equal(c.querySelector('.gh-root')?.getAttribute('lang'), 'de');
    const c2 = await show(app, <Handler path="/handler/forgot-password" locale="de" />);
    await waitForText(c2, 'Passwort zurücksetzen');
  });

  it('Handler routes each sub-path, honours overrides, and shows unknown ones as not found', async () => {
    const { app } = makeApp();
    const c = await show(app, <Handler path="/handler/sign-up" />);
    await waitForText(c, 'Create a new account');
    const c2 = await show(app, <Handler path="/handler/nope" />);
    await waitForText(c2, 'This page does not exist.');
    const c3 = await show(
      app,
      <Handler path="/auth/forgot-password" basePath="/auth" routes={{ forgotPassword: () => <p>custom page</p> }} />,
    );
    await waitForText(c3, 'custom page');
  });
});

describe('OAuthButtonGroup, PasskeyButton and the callback pages', () => {
  it('OAuth: one button per enabled provider, starting the PKCE authorize redirect', async () => {
    const { app } = makeApp();
    const assigned = await captureAssign(async (navigations) => {
      const c = await show(app, <OAuthButtonGroup type="sign-in" />);
      await waitForText(c, 'Sign in with GitHub');
      await click(c, /Sign in with GitHub/);
      await waitFor(
        () => navigations.length > 0,
        () => 'no navigation to the authorize URL',
      );
    });
    assert.equal(assigned.length, 1);
    const url = new URL(assigned[0]!);
    assert.equal(url.pathname, '/api/v1/auth/oauth/authorize/github');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('redirect_uri'), 'http://localhost:3000/handler/oauth-callback');
    const state = url.searchParams.get('state')!;
    assert.ok(document.cookie.includes(`stack-oauth-outer-${state}=`), 'the verifier is kept in a cookie keyed by state');
  });

  it('OAuth: renders nothing when no provider is enabled', async () => {
    const { app } = makeApp((req) =>
      req.path === '/projects/current' ? { json: { ...PROJECT, config: { ...PROJECT.config, enabled_oauth_providers: [] } } } : undefined,
    );
    const c = await show(
      app,
      <div data-x="1">
        <OAuthButtonGroup type="sign-in" />
      </div>,
    );
    await flush();
    assert.equal(c.querySelectorAll('button').length, 0);
  });

  it('Passkey: hidden when disabled, and says when WebAuthn is missing', async () => {
    const off = makeApp();
    const c1 = await show(
      off.app,
      <div>
        <PasskeyButton />
      </div>,
    );
    await flush();
    assert.equal(c1.querySelectorAll('button').length, 0);
    const { app } = makeApp((req) =>
      req.path === '/projects/current' ? { json: { ...PROJECT, config: { ...PROJECT.config, passkey_enabled: true } } } : undefined,
    );
    const c = await show(app, <PasskeyButton />);
    await waitForText(c, 'Sign in with a passkey');
    await click(c, 'Sign in with a passkey');
    await waitForText(c, 'This browser does not support passkeys.');
  });

  it('Passkey and OAuth buttons stay hidden while the server cannot do them (hosted pages pass its capabilities)', async () => {
    const { app } = makeApp((req) =>
      req.path === '/projects/current' ? { json: { ...PROJECT, config: { ...PROJECT.config, passkey_enabled: true } } } : undefined,
    );
    const c = await show(
      app,
      <CapabilitiesContext.Provider value={{ passkey: false, oauth: false, mfa: false }}>
        <SignIn />
      </CapabilitiesContext.Provider>,
    );
    await waitForText(c, 'Email & password');
    assert.equal(/passkey|GitHub/i.test(c.textContent ?? ''), false, c.textContent ?? '');
    assert.equal(/or continue with email/.test(c.textContent ?? ''), false, 'no separator without other methods');
  });

  it('Magic-link callback: signs in with the code, or shows why not', async () => {
    const { app, visited } = makeApp((req) => (req.path === '/auth/otp/sign-in' ? { json: TOKENS } : undefined));
    const c = await show(app, <MagicLinkCallback code="good" />);
    await waitForText(c, 'You are signed in.');
    assert.deepEqual(visited, ['/']);
    const bad = makeApp((req) => (req.path === '/auth/otp/sign-in' ? { status: 400, knownError: 'VERIFICATION_CODE_EXPIRED' } : undefined));
    const c2 = await show(bad.app, <MagicLinkCallback code="old" />);
    await waitForText(c2, 'This link or code has expired.');
    assert.ok(c2.querySelector('a[href="/handler/sign-in"]'));
  });

  it('OAuth callback: reports a missing code', async () => {
    setUrl('/handler/oauth-callback');
    const { app } = makeApp();
    const c = await show(app, <OAuthCallback />);
    await waitForText(c, 'The sign-in link is incomplete.');
  });

  it('Sign-out page: signs out and redirects home', async () => {
    const { app, visited, transport } = makeApp(undefined, true);
    const c = await show(app, <SignOut />);
    await waitForText(c, 'You are signed out.');
    assert.ok(transport.requests.some((r) => r.method === 'DELETE' && r.path === '/auth/sessions/current'));
    assert.deepEqual(visited, ['/']);
    assert.equal(app.session?.tokens().refreshToken, null);
  });
});

describe('useUser', () => {
  function Name(props: { or?: 'throw' | 'anonymous' | 'return-null' }) {
    const user = useUser({ or: props.or });
    return <p>{user ? `user:${user.id}:${user.isAnonymous}` : 'nobody'}</p>;
  }
  class Catch extends Component<{ children?: ReactNode }, { error: string | null }> {
    override state = { error: null as string | null };
    static getDerivedStateFromError(e: Error) {
      return { error: e.name };
    }
    override render() {
      return this.state.error ? <p>caught:{this.state.error}</p> : this.props.children;
    }
  }

  it('suspends, then returns null, the user, throws, or signs up an anonymous user, with one request for many readers', async () => {
    const signedOut = makeApp();
    const c1 = await show(
      signedOut.app,
      <Suspense fallback={<p>wait</p>}>
        <Name />
      </Suspense>,
    );
    await waitForText(c1, 'nobody');
    const c2 = await show(
      signedOut.app,
      <Catch>
        <Suspense fallback={<p>wait</p>}>
          <Name or="throw" />
        </Suspense>
      </Catch>,
    );
    await waitForText(c2, 'caught:UserNotSignedInError');

    const anon = { ...USER, id: 'anon1', is_anonymous: true };
    const anonymous = makeApp((req) =>
      req.path === '/auth/anonymous/sign-up'
        ? { json: { ...TOKENS, user_id: 'anon1' } }
        : req.path === '/users/me'
          ? { json: anon }
          : undefined,
    );
    const c3 = await show(
      anonymous.app,
      <Suspense fallback={<p>wait</p>}>
        <Name or="anonymous" />
        <Name or="anonymous" />
      </Suspense>,
    );
    await waitForText(c3, 'user:anon1:true');
    assert.equal(anonymous.transport.requests.filter((r) => r.path === '/auth/anonymous/sign-up').length, 1);

    const signedIn = makeApp(undefined, true);
    const c4 = await show(
      signedIn.app,
      <Suspense fallback={<p>wait</p>}>
        <Name />
        <Name />
        <Name />
      </Suspense>,
    );
    await waitForText(c4, 'user:u1:false');
    assert.equal(signedIn.transport.requests.filter((r) => r.path === '/users/me').length, 1, 'no refetch storm');
  });
});

describe('AccountSettings passkeys', () => {
  const passkeyProject = (req: TransportRequest) =>
    req.path === '/projects/current' ? { json: { ...PROJECT, config: { ...PROJECT.config, passkey_enabled: true } } } : undefined;

  it('offers no passkey section while the project has passkeys off', async () => {
    const { app } = makeApp(undefined, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Current password');
    assert.equal(/Add a passkey/.test(c.textContent ?? ''), false);
  });

  it("lists the user's passkeys, removes one, and reports a browser without WebAuthn when adding", async () => {
    let keys = [
      {
        id: 'pk1',
        user_id: 'u1',
        credential_id: 'cred',
        device_type: 'singleDevice',
        backed_up: false,
        transports: ['usb'],
        created_at_millis: 0,
        last_used_at_millis: null,
      },
    ];
    const { app, transport } = makeApp((req) => {
      if (req.path.startsWith('/passkeys?') && req.method === 'GET') return { json: { items: keys, is_paginated: false } };
      if (req.path === '/passkeys/me/pk1' && req.method === 'DELETE') {
        keys = [];
        return { json: { success: true } };
      }
      return passkeyProject(req);
    }, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'never used');
    await click(c.querySelector('ul[aria-label="Passkeys"]') as HTMLElement, 'Remove');
    await waitForText(c, 'You have no passkeys.');
    assert.ok(transport.requests.some((r) => r.method === 'DELETE' && r.path === '/passkeys/me/pk1'));
    await click(c, 'Add a passkey');
    await waitForText(c, 'This browser does not support passkeys.');
  });

  it('explains at an IP address that passkeys need a domain name, linking the same page on localhost', async () => {
    setUrl('http://127.0.0.1:8102/handler/account-settings');
    try {
      const { app } = makeApp(
        (req) => (req.path.startsWith('/passkeys?') ? { json: { items: [], is_paginated: false } } : passkeyProject(req)),
        true,
      );
      const c = await show(app, <AccountSettings />);
      await waitForText(c, 'Passkeys need a domain name');
      assert.equal(button(c, 'Add a passkey').disabled, true);
      assert.ok(c.querySelector('[data-testid="passkey-ip-note"] a[href="http://localhost:8102/handler/account-settings"]'));
      const signIn = await show(makeApp(passkeyProject).app, <PasskeyButton />);
      await waitForText(signIn, 'open it at http://localhost:8102/handler/account-settings'.replace('open', 'Open'));
    } finally {
      setUrl('/handler/sign-in');
    }
  });
});

describe('Two-factor authentication', () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '0')}`);

  it('sends a password sign-in of a TOTP user to the MFA page with the attempt code, without tokens', async () => {
    const { app, visited } = makeApp((req) =>
      req.path === '/auth/password/sign-in'
        ? { status: 400, knownError: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', json: { details: { attempt_code: 'attempt-1' } } }
        : undefined,
    );
    const c = await show(app, <SignIn />);
    await waitForText(c, 'Email & password');
    await type(c, 'Email', 'ada@example.com');
    await type(c, 'Password', 'correct-horse');
    await click(c, 'Sign in');
    await flush();
    assert.equal(sessionStorage.getItem(MFA_ATTEMPT_KEY), 'attempt-1');
    assert.equal(app.session?.tokens().refreshToken ?? null, null, 'no tokens before the second factor');
    assert.deepEqual(visited, ['/handler/mfa']);
  });

  it('keeps after_auth_return_to through the MFA step: a TOTP user signing in from a protected page lands back there', async () => {
    setUrl('/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2');
    try {
      const { app, visited } = makeApp((req) =>
        req.path === '/auth/password/sign-in'
          ? { status: 400, knownError: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', json: { details: { attempt_code: 'attempt-1' } } }
          : req.path === '/auth/mfa/sign-in'
            ? { json: { ...TOKENS, is_new_user: false } }
            : undefined,
      );
      const c = await show(app, <SignIn />);
      await waitForText(c, 'Email & password');
      await type(c, 'Email', 'ada@example.com');
      await type(c, 'Password', 'correct-horse');
      await click(c, 'Sign in');
      await waitFor(
        () => visited.length === 1,
        () => `no redirect: ${visited.join(', ')}`,
      );
      assert.deepEqual(visited, ['/handler/mfa?after_auth_return_to=%2Fprotected%3Ftab%3D2']);
      setUrl(visited[0]!);
      const mfa = await show(app, <MfaPage />);
      await type(mfa, 'Authentication code', '123456');
      await click(mfa, 'Verify');
      await waitFor(
        () => visited.length === 2,
        () => `no redirect after MFA: ${visited.join(', ')}`,
      );
      assert.equal(visited[1], '/protected?tab=2');
    } finally {
      setUrl('/handler/sign-in');
    }
  });

  it('completes the MFA page with a recovery code instead of a TOTP', async () => {
    const { app, transport } = makeApp((req) =>
      req.path === '/auth/mfa/sign-in' ? { json: { ...TOKENS, is_new_user: false } } : undefined,
    );
    const c = await show(app, <MfaPage attemptCode="attempt" />);
    await click(c, 'Use a recovery code');
    await type(c, 'Recovery code', 'nope');
    await click(c, 'Verify');
    await waitForText(c, 'Enter one of your recovery codes');
    assert.equal(transport.requests.filter((r) => r.path === '/auth/mfa/sign-in').length, 0);
    await type(c, 'Recovery code', ' ABCD-efgh-jkmn-pq01 ');
    await click(c, 'Verify');
    await flush();
    assert.deepEqual(JSON.parse(transport.requests.find((r) => r.path === '/auth/mfa/sign-in')!.body!), {
      type: 'recovery_code',
      recovery_code: 'ABCD-efgh-jkmn-pq01',
      code: 'attempt',
    });
    assert.equal(app.session?.tokens().refreshToken, 'rt');
  });

  it('enrols an authenticator from a locally drawn QR code, refusing a wrong code, then shows recovery codes once', async () => {
    const { app, transport } = makeApp(
      (req) =>
        req.path === '/auth/mfa/recovery-codes' && req.method === 'POST'
          ? { json: { recovery_codes: CODES } }
          : req.path === '/users/me' && req.method === 'PATCH'
            ? { json: { ...USER, requires_totp_mfa: true } }
            : undefined,
      true,
    );
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Two-factor authentication is off.');
    await click(c, 'Set up two-factor authentication');
    const qr = c.querySelector('svg[role=img]');
    assert.ok(qr, 'a QR code is drawn');
    assert.ok(Number(qr.getAttribute('data-qr-modules')) >= 21);
    assert.ok((qr.querySelector('path')?.getAttribute('d') ?? '').length > 100);
    assert.equal(c.querySelectorAll('img').length, 0, 'no image is fetched from anywhere');
    const base32 = c.querySelector('[data-testid=totp-secret]')!.textContent!.replace(/\s/g, '');
    const secret = Secret.fromBase32(base32).bytes;
    const right = await totpForStep(secret, Math.floor(Date.now() / 30_000));
    const wrong = right === '000000' ? '111111' : '000000';

    await type(c, 'Authentication code', wrong);
    await click(c, 'Turn on');
    await waitForText(c, 'The code is not correct.');
    assert.equal(
      transport.requests.filter((r) => r.path === '/users/me' && r.method === 'PATCH').length,
      0,
      'nothing saved for a wrong code',
    );

    await type(c, 'Authentication code', right);
    await click(c, 'Turn on');
    await waitForText(c, 'Save these recovery codes');
    const patch = transport.requests.find((r) => r.path === '/users/me' && r.method === 'PATCH')!;
    assert.equal(Buffer.from(JSON.parse(patch.body!).totp_secret_base64, 'base64').equals(Buffer.from(secret)), true);
    const listed = Array.from(c.querySelectorAll('[aria-label="Recovery codes"] li')).map((li) => li.textContent);
    assert.deepEqual(listed, CODES);
    const download = Array.from(c.querySelectorAll('a[download]')).find((a) => a.textContent === 'Download codes') as HTMLAnchorElement;
    assert.equal(download.getAttribute('download'), 'recovery-codes.txt');
    assert.deepEqual(
      decodeURIComponent(download.getAttribute('href')!.replace(/^data:text\/plain;charset=utf-8,/, ''))
        .split('\n')
        .filter((l) => CODES.includes(l)),
      CODES,
    );
    await click(c, 'Copy codes');
    assert.equal(await navigator.clipboard.readText(), CODES.join('\n'));
  });

  it('turns TOTP off and creates new recovery codes for a user who has it on', async () => {
    const { app, transport } = makeApp((req) => {
      if (req.path === '/users/me' && req.method === 'GET') return { json: { ...USER, requires_totp_mfa: true } };
      if (req.path === '/auth/mfa/recovery-codes' && req.method === 'POST') return { json: { recovery_codes: CODES } };
      return undefined;
    }, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Signing in asks for a code from your authenticator app.');
    await click(c, 'Create new recovery codes');
    await waitForText(c, CODES[9]!);
    await click(c, 'Turn off');
    await waitForText(c, 'Two-factor authentication is off.');
    const patch = transport.requests.find((r) => r.path === '/users/me' && r.method === 'PATCH')!;
    assert.deepEqual(JSON.parse(patch.body!), { totp_secret_base64: null });
  });
});
