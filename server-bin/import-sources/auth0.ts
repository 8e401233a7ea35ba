import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** Auth0 identity providers → Gatehouse's provider ids (the project must have them configured). */
const PROVIDERS: Record<string, string> = {
  'google-oauth2': 'google',
  github: 'github',
  windowslive: 'microsoft',
  facebook: 'facebook',
  apple: 'apple',
  twitter: 'x',
  gitlab: 'gitlab',
  bitbucket: 'bitbucket',
  linkedin: 'linkedin',
};

interface Auth0User {
  user_id?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  nickname?: string;
  picture?: string;
  created_at?: string;
  identities?: Array<{ provider?: string; user_id?: string | number; isSocial?: boolean }>;
  user_metadata?: unknown;
  app_metadata?: unknown;
}

async function* jsonLines(file: string): AsyncGenerator<unknown> {
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    yield JSON.parse(line);
  }
}

/**
 * Reads Auth0's password hash export (NDJSON, one `{"_id":{"$oid":…},"email":…,"passwordHash":"$2b$…"}`
 * per user, obtained from Auth0 support) into a map from Auth0 user id (`auth0|<oid>`) to bcrypt hash.
 */
export async function auth0PasswordHashes(file: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const value of jsonLines(file)) {
    const row = value as { _id?: { $oid?: string } | string; passwordHash?: string };
    const oid = typeof row._id === 'string' ? row._id : row._id?.$oid;
    if (oid && row.passwordHash) hashes.set(`auth0|${oid}`, row.passwordHash);
  }
  return hashes;
}

/**
 * Auth0's bulk user export (Management API `POST /api/v2/jobs/users-exports` with format `json`:
 * NDJSON, one user per line) as import records, merged with the password hashes by user id.
 * `user_metadata` → client_metadata, `app_metadata` → server_metadata; social identities become
 * OAuth links (provider + the provider's user id).
 */
export async function* auth0Records(file: string, hashes: Map<string, string>): AsyncGenerator<Record<string, unknown>> {
  for await (const value of jsonLines(file)) {
    const user = value as Auth0User;
    const links = (user.identities ?? [])
      .filter((i) => i.isSocial !== false && i.provider && PROVIDERS[i.provider] && i.user_id !== undefined)
      .map((i) => ({ id: PROVIDERS[i.provider!], account_id: String(i.user_id), email: user.email ?? null }));
    const signedUp = user.created_at ? Date.parse(user.created_at) : Number.NaN;
    const object = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
    yield {
      source_id: user.user_id,
      ...(user.email ? { primary_email: user.email, primary_email_verified: user.email_verified === true } : {}),
      ...(user.name && user.name !== user.email ? { display_name: user.name } : {}),
      ...(user.picture ? { profile_image_url: user.picture } : {}),
      ...(Number.isFinite(signedUp) ? { signed_up_at_millis: signedUp } : {}),
      ...(user.user_id && hashes.has(user.user_id) ? { password_hash: hashes.get(user.user_id) } : {}),
      ...(links.length > 0 ? { oauth_providers: links } : {}),
      ...(object(user.user_metadata) ? { client_metadata: user.user_metadata } : {}),
      ...(object(user.app_metadata) ? { server_metadata: user.app_metadata } : {}),
    };
  }
}
