import type { Kysely, Migration } from 'kysely';

/**
 * The recipient's language and the session's device (issue 28 findings 8 and 9):
 * - `users.locale`: the BCP 47 language the user chose on the hosted pages (at sign-up, or in
 *   account settings), used for the emails Gatehouse sends them; null: the project's default.
 * - `refresh_tokens.user_agent`: the `User-Agent` of the request that created or last refreshed
 *   the session (at most 512 characters), shown as browser and OS.
 * - `refresh_tokens.last_used_place`: JSON `{country_code, region_code, city_name, latitude,
 *   longitude, tz_identifier}` looked up in the operator's GeoIP database file at the session's
 *   last use; null when no database is configured (never a network call).
 */
export const localeDevices: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('locale', 'text').execute();
    await db.schema.alterTable('refresh_tokens').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('refresh_tokens').addColumn('last_used_place', 'text').execute();
  },
};
