import { firebaseScryptHash } from '../auth-password/index.ts';

/** A project's password hash parameters (Firebase console → Authentication → Users → "Password hash parameters"). */
export interface FirebaseHashConfig {
  base64_signer_key: string;
  base64_salt_separator: string;
  rounds: number;
  mem_cost: number;
}

/**
 * Reads the hash parameters as the Firebase console shows them (`hash_config { algorithm: SCRYPT,
 * base64_signer_key: …, base64_salt_separator: …, rounds: 8, mem_cost: 14 }`) or as a JSON object
 * with the same keys.
 * @throws Error naming the missing or invalid parameter.
 */
export function parseFirebaseHashConfig(text: string): FirebaseHashConfig {
  const value = (key: string) => new RegExp(`"?${key}"?\\s*[:=]\\s*"?([A-Za-z0-9+/=]+)"?`).exec(text)?.[1];
  const config = {
    base64_signer_key: value('base64_signer_key'),
    base64_salt_separator: value('base64_salt_separator'),
    rounds: Number(value('rounds')),
    mem_cost: Number(value('mem_cost')),
  };
  if (!config.base64_signer_key) throw new Error('the Firebase hash config has no base64_signer_key');
  if (config.base64_salt_separator === undefined) throw new Error('the Firebase hash config has no base64_salt_separator');
  if (!Number.isInteger(config.rounds) || !Number.isInteger(config.mem_cost))
    throw new Error('the Firebase hash config needs whole-number rounds and mem_cost');
  return config as FirebaseHashConfig;
}

/** One account of `firebase auth:export --format=json` (firebase.google.com/docs/cli/auth). */
interface FirebaseAccount {
  localId: string;
  email?: string;
  emailVerified?: boolean;
  displayName?: string;
  photoUrl?: string;
  passwordHash?: string;
  salt?: string;
  createdAt?: string;
  customAttributes?: string;
  providerUserInfo?: Array<{ providerId: string; rawId: string; email?: string }>;
}

// Firebase provider ids → Gatehouse's (the project must have them configured).
const PROVIDERS: Record<string, string> = {
  'google.com': 'google',
  'github.com': 'github',
  'facebook.com': 'facebook',
  'microsoft.com': 'microsoft',
  'apple.com': 'apple',
  'twitter.com': 'x',
};

/**
 * A Firebase account as a line of Gatehouse's import format: `source_id` = `localId`, the password
 * as a `$firebase-scrypt$` hash carrying the project's parameters, OAuth links for the providers
 * Gatehouse knows, `customAttributes` (custom claims) as `client_read_only_metadata`.
 */
export function firebaseAccountToRecord(account: FirebaseAccount, config: FirebaseHashConfig): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = account.customAttributes ? JSON.parse(account.customAttributes) : undefined;
  } catch {
    claims = undefined;
  }
  const links = (account.providerUserInfo ?? [])
    .filter((p) => PROVIDERS[p.providerId])
    .map((p) => ({ id: PROVIDERS[p.providerId], account_id: p.rawId, email: p.email ?? null }));
  return {
    source_id: account.localId,
    ...(account.email ? { primary_email: account.email, primary_email_verified: account.emailVerified === true } : {}),
    ...(account.displayName ? { display_name: account.displayName } : {}),
    ...(account.photoUrl ? { profile_image_url: account.photoUrl } : {}),
    ...(account.createdAt ? { signed_up_at_millis: Number(account.createdAt) } : {}),
    ...(account.passwordHash && account.salt !== undefined
      ? { password_hash: firebaseScryptHash({ passwordHash: account.passwordHash, salt: account.salt }, config) }
      : {}),
    ...(links.length > 0 ? { oauth_providers: links } : {}),
    ...(claims !== undefined ? { client_read_only_metadata: claims } : {}),
  };
}
