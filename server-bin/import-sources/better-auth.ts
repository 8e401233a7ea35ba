import { millis, SOURCE_PAGE, type SqlSource } from './sql-source.ts';

/** Better Auth's social provider ids are Gatehouse's, but for these. */
const PROVIDERS: Record<string, string> = { microsoft: 'microsoft', twitter: 'x' };

interface BetterAuthUser {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean | number | null;
  image: string | null;
  createdAt: unknown;
}

/**
 * A Better Auth database (its default schema: tables `user` and `account`, camelCase columns;
 * sessions are not imported) as import records, 1,000 users per query in id order. The password
 * is the `credential` account's `password` (Better Auth's scrypt `salt:key` hex, which Gatehouse
 * verifies); every other account is an OAuth link (provider id + `accountId`).
 */
export async function* betterAuthRecords(source: SqlSource): AsyncGenerator<Record<string, unknown>> {
  for (let after = ''; ; ) {
    const users = await source.query<BetterAuthUser>(
      `select "id", "name", "email", "emailVerified", "image", "createdAt" from "user" where "id" > $1 order by "id" limit ${SOURCE_PAGE}`,
      [after],
    );
    if (users.length === 0) return;
    const ids = users.map((u) => u.id);
    const accounts = await source.query<{ userId: string; providerId: string; accountId: string; password: string | null }>(
      `select "userId", "providerId", "accountId", "password" from "account" where "userId" in (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
    for (const user of users) {
      const mine = accounts.filter((a) => a.userId === user.id);
      const password = mine.find((a) => a.providerId === 'credential')?.password;
      const links = mine
        .filter((a) => a.providerId !== 'credential')
        .map((a) => ({ id: PROVIDERS[a.providerId] ?? a.providerId, account_id: a.accountId, email: user.email }));
      yield {
        source_id: user.id,
        ...(user.email ? { primary_email: user.email, primary_email_verified: Boolean(user.emailVerified) } : {}),
        ...(user.name ? { display_name: user.name } : {}),
        ...(user.image ? { profile_image_url: user.image } : {}),
        ...(millis(user.createdAt) !== undefined ? { signed_up_at_millis: millis(user.createdAt) } : {}),
        ...(password ? { password_hash: password } : {}),
        ...(links.length > 0 ? { oauth_providers: links } : {}),
      };
    }
    after = users[users.length - 1]!.id;
  }
}
