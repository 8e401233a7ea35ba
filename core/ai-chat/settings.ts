import type { Kysely } from 'kysely';
import type { Runtime } from '../runtime.ts';
import type { Database } from '../storage/tables.ts';
import { open, seal } from '../lib/secret-box.ts';
import { readServerSetting, writeServerSetting } from './queries.ts';

/** The model endpoint in effect: where answers come from. */
export interface AiEndpoint {
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

/** Where each value of the endpoint comes from, for the dashboard's server settings. */
export interface AiSettingsView {
  configured: boolean;
  base_url: string | null;
  model: string | null;
  /** Whether a key is set; the key itself is never read back (write-only). */
  api_key_set: boolean;
  /** `dashboard` when saved in the server settings, `environment` when from the host, else null. */
  source: { base_url: Source; model: Source; api_key: Source };
}
type Source = 'dashboard' | 'environment' | null;

/** `server_settings` keys of the values saved in the dashboard; the key is sealed (AES-256-GCM). */
const KEYS = { baseUrl: 'ai.base_url', model: 'ai.model', apiKey: 'ai.api_key_sealed' } as const;
const SEAL_CONTEXT = 'server_settings:ai.api_key';

interface Stored {
  baseUrl: string | null;
  model: string | null;
  apiKey: string | null;
}

async function readStored(runtime: Runtime, db: Kysely<Database>): Promise<Stored> {
  const [baseUrl, model, sealed] = await Promise.all([
    readServerSetting(db, KEYS.baseUrl),
    readServerSetting(db, KEYS.model),
    readServerSetting(db, KEYS.apiKey),
  ]);
  return { baseUrl, model, apiKey: sealed === null ? null : open(runtime.deriveKey('server-settings'), sealed, SEAL_CONTEXT) };
}

/**
 * The endpoint in effect: each value saved in the dashboard's server settings wins over the
 * host's (GATEHOUSE_AI_*); null when no base URL or no model is set (the assistant is off).
 */
export async function resolveAiEndpoint(runtime: Runtime, db: Kysely<Database>): Promise<AiEndpoint | null> {
  const stored = await readStored(runtime, db);
  const baseUrl = stored.baseUrl ?? runtime.ai.baseUrl;
  const model = stored.model ?? runtime.ai.model;
  if (!baseUrl || !model) return null;
  return { baseUrl, model, apiKey: stored.apiKey ?? runtime.ai.apiKey };
}

/** The settings as the dashboard shows them (never the key). */
export async function viewAiSettings(runtime: Runtime, db: Kysely<Database>): Promise<AiSettingsView> {
  const stored = await readStored(runtime, db);
  const pick = <T>(own: T | null, host: T | null): [T | null, Source] =>
    own !== null ? [own, 'dashboard'] : host !== null ? [host, 'environment'] : [null, null];
  const [baseUrl, baseSource] = pick(stored.baseUrl, runtime.ai.baseUrl);
  const [model, modelSource] = pick(stored.model, runtime.ai.model);
  const [apiKey, keySource] = pick(stored.apiKey, runtime.ai.apiKey);
  return {
    configured: baseUrl !== null && model !== null,
    base_url: baseUrl,
    model,
    api_key_set: apiKey !== null,
    source: { base_url: baseSource, model: modelSource, api_key: keySource },
  };
}

/**
 * Saves dashboard values: a string sets one, null removes it (back to the host's value),
 * undefined leaves it. The key is sealed with a key derived from the server secret.
 */
export async function saveAiSettings(
  runtime: Runtime,
  db: Kysely<Database>,
  changes: { baseUrl?: string | null; model?: string | null; apiKey?: string | null },
): Promise<void> {
  if (changes.baseUrl !== undefined) await writeServerSetting(db, KEYS.baseUrl, changes.baseUrl);
  if (changes.model !== undefined) await writeServerSetting(db, KEYS.model, changes.model);
  if (changes.apiKey !== undefined) {
    await writeServerSetting(
      db,
      KEYS.apiKey,
      changes.apiKey === null ? null : seal(runtime.deriveKey('server-settings'), changes.apiKey, SEAL_CONTEXT),
    );
  }
}
