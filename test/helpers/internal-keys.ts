/**
 * The internal project's keys in every test server and in-process test core
 * (test/helpers/server.ts, test/helpers/core-client.ts): known values, so tests can send them.
 */
export const INTERNAL_KEYS = {
  publishableClientKey: 'pck_test_internal_publishable_key_0123456789abcdefghijk',
  secretServerKey: 'ssk_test_internal_secret_server_key_0123456789abcdefghij',
  superSecretAdminKey: 'sak_test_internal_super_secret_admin_key_0123456789abcd',
};
