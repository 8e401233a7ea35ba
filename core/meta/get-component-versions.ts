import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';

/**
 * The page components an app may replace with its own (upstream's `HandlerPageUrls` keys, less
 * `handler`), each at Gatehouse's hosted-page version 1.
 */
export const PAGE_COMPONENTS = [
  'signIn',
  'signUp',
  'signOut',
  'emailVerification',
  'passwordReset',
  'forgotPassword',
  'oauthCallback',
  'magicLinkCallback',
  'accountSettings',
  'teamInvitation',
  'mfa',
  'error',
  'onboarding',
] as const;

/**
 * `GET /internal/component-versions` (public; upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/internal/component-versions/route.ts): per page component its
 * latest version and a changelog per version, `{versions: {signIn: {version: 1, changelogs: {"1":
 * "Initial version."}}, …}}`; the SDK's dev tool compares them with the pages an app installed.
 */
export const getComponentVersions = defineOperation({
  id: 'meta.getComponentVersions',
  method: 'GET',
  path: '/internal/component-versions',
  summary: 'Versions and changelogs of the replaceable page components.',
  access: 'public',
  input: {},
  errors: [],
  output: v.strictObject({
    versions: v.record(v.string(), v.strictObject({ version: v.number(), changelogs: v.record(v.string(), v.string()) })),
  }),
  async run() {
    return { versions: Object.fromEntries(PAGE_COMPONENTS.map((page) => [page, { version: 1, changelogs: { 1: 'Initial version.' } }])) };
  },
});
