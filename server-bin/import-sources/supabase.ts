import { jsonObject, millis, SOURCE_PAGE, type SqlSource } from './sql-source.ts';

/** Supabase Auth's provider names → Gatehouse's provider ids (the project must have them configured). */
const PROVIDERS: Record<string, string> = {
  google: 'google',
  github: 'github',
  azure: 'microsoft',
  facebook: 'facebook',
  apple: 'apple',
  twitter: 'x',
  gitlab: 'gitlab',
  bitbucket: 'bitbucket',
  linkedin_oidc: 'linkedin',
  discord: 'discord',
  spotify: 'spotify',
  twitch: 'twitch',
};

interface SupabaseUser {
  id: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: unknown;
  raw_user_meta_data: unknown;
  raw_app_meta_data: unknown;
  created_at: unknown;
}

/**
 * A Supabase project's database (PostgreSQL URL) as import records: `auth.users` (bcrypt
 * `encrypted_password`, `email_confirmed_at` → verified, `raw_user_meta_data` → client_metadata
 * and its `full_name`/`name`/`avatar_url`, `raw_app_meta_data` → client_read_only_metadata),
 * without deleted and anonymous users, and `auth.identities` as OAuth links (`provider_id`, the
 * provider's user id). Ids are UUIDs and are kept. 1,000 users per query in id order.
 */
export async function* supabaseRecords(source: SqlSource): AsyncGenerator<Record<string, unknown>> {
  const columns = new Set(
    (
      await source.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'auth' and table_name = 'users'`,
      )
    ).map((c) => c.column_name),
  );
  const live = [columns.has('deleted_at') ? 'deleted_at is null' : '', columns.has('is_anonymous') ? 'not is_anonymous' : '']
    .filter(Boolean)
    .map((c) => ` and ${c}`)
    .join('');
  for (let after = '00000000-0000-0000-0000-000000000000'; ; ) {
    const users = await source.query<SupabaseUser>(
      `select id::text as id, email, encrypted_password, email_confirmed_at, raw_user_meta_data, raw_app_meta_data, created_at
         from auth.users where id > $1::uuid${live} order by id limit ${SOURCE_PAGE}`,
      [after],
    );
    if (users.length === 0) return;
    const identities = await source.query<{ user_id: string; provider: string; provider_id: string }>(
      `select user_id::text as user_id, provider, coalesce(provider_id, identity_data->>'sub') as provider_id
         from auth.identities where user_id = any($1::uuid[])`,
      [users.map((u) => u.id)],
    );
    for (const user of users) {
      const meta = jsonObject(user.raw_user_meta_data);
      const name = meta?.full_name ?? meta?.name;
      const avatar = meta?.avatar_url ?? meta?.picture;
      const links = identities
        .filter((i) => i.user_id === user.id && PROVIDERS[i.provider] && i.provider_id)
        .map((i) => ({ id: PROVIDERS[i.provider], account_id: i.provider_id, email: user.email }));
      const app = jsonObject(user.raw_app_meta_data);
      yield {
        source_id: user.id,
        ...(user.email ? { primary_email: user.email, primary_email_verified: user.email_confirmed_at != null } : {}),
        ...(typeof name === 'string' && name ? { display_name: name } : {}),
        ...(typeof avatar === 'string' && /^https?:\/\//.test(avatar) ? { profile_image_url: avatar } : {}),
        ...(millis(user.created_at) !== undefined ? { signed_up_at_millis: millis(user.created_at) } : {}),
        ...(user.encrypted_password ? { password_hash: user.encrypted_password } : {}),
        ...(links.length > 0 ? { oauth_providers: links } : {}),
        ...(meta ? { client_metadata: meta } : {}),
        ...(app ? { client_read_only_metadata: app } : {}),
      };
    }
    after = users[users.length - 1]!.id;
  }
}
