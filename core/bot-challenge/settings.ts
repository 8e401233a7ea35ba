import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { Runtime } from '../runtime.ts';
import { open, seal } from '../lib/secret-box.ts';
import { loadConfigLayers, renderLayers } from '../config/index.ts';
import { findBotChallengeSecret, upsertBotChallengeSecret } from './queries.ts';

/**
 * A project branch's Cloudflare Turnstile settings. The site key is public and lives in
 * the config model (`botChallenge.turnstileSiteKey`, environment level: the sign-in pages render
 * the widget with it); the secret key is stored only sealed (AES-256-GCM under a key derived from
 * the server secret per project and branch, the row's identity as associated data, as the Stripe
 * keys are) and no route ever answers it, only a hint (`0x…AbCd`).
 */
export interface TurnstileSettings {
  siteKey: string;
  /** Null when the site key is set but no secret key is stored (verification then counts as `error`). */
  secretKey: string | null;
}

const keyFor = (runtime: Runtime, projectId: string, branchId: string) =>
  runtime.deriveKey(`bot-challenge/turnstile/${projectId}/${branchId}`);
const aad = (projectId: string, branchId: string) => `${projectId}\n${branchId}\nturnstile_secret`;

/** `0x…AbCd`: the first two and last four characters of a secret key. */
export function turnstileSecretHint(secretKey: string): string {
  return `${secretKey.slice(0, 2)}…${secretKey.slice(-4)}`;
}

/** Seals and stores a project branch's Turnstile secret key. */
export async function saveTurnstileSecret(
  runtime: Runtime,
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  secretKey: string,
  now: number,
): Promise<void> {
  await upsertBotChallengeSecret(db, {
    project_id: projectId,
    branch_id: branchId,
    turnstile_secret_sealed: seal(keyFor(runtime, projectId, branchId), secretKey, aad(projectId, branchId)),
    turnstile_secret_hint: turnstileSecretHint(secretKey),
    updated_at: now,
  });
}

/** The site key of a project branch's rendered config, or null. */
export async function turnstileSiteKey(db: Kysely<Database>, projectId: string, branchId: string, now: number): Promise<string | null> {
  const rendered = renderLayers(await loadConfigLayers(db, projectId, branchId, now));
  const siteKey: unknown = rendered.botChallenge?.turnstileSiteKey;
  return typeof siteKey === 'string' && siteKey !== '' ? siteKey : null;
}

/**
 * The Turnstile settings of a project branch, or null when it has no site key (bot challenges
 * off: the default). A stored secret that no longer opens (another server secret) counts as none.
 */
export async function loadTurnstileSettings(
  runtime: Runtime,
  db: Kysely<Database>,
  projectId: string,
  branchId: string,
  now: number,
): Promise<TurnstileSettings | null> {
  const siteKey = await turnstileSiteKey(db, projectId, branchId, now);
  if (siteKey === null) return null;
  const row = await findBotChallengeSecret(db, projectId, branchId);
  const secretKey = row ? open(keyFor(runtime, projectId, branchId), row.turnstile_secret_sealed, aad(projectId, branchId)) : null;
  return { siteKey, secretKey };
}
