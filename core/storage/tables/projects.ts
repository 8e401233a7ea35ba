/**
 * Table types (see core/storage/tables.ts for the conventions): Projects, their settings and what they store besides users (images, the data vault, the assistant's threads).
 */
import type { Bool } from './columns.ts';

export interface ServerSettingsTable {
  key: string;
  value: string;
}

export interface ProjectsTable {
  id: string;
  display_name: string;
  description: string;
  created_at: number;
  is_production_mode: Bool;
  is_development_environment: Bool;
  owner_team_id: string | null;
  logo_url: string | null;
  logo_full_url: string | null;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  /** JSON of the project config (core/config). */
  config: string;
}

export interface InternalApiKeysTable {
  id: string;
  project_id: string;
  description: string;
  created_at: number;
  expires_at: number | null;
  manually_revoked_at: number | null;
  publishable_client_key_hash: string | null;
  publishable_client_key_last_four: string | null;
  secret_server_key_hash: string | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: string | null;
  super_secret_admin_key_last_four: string | null;
}

/** Config overrides (migration 0014): one per project and level; branch_id '' at the project level. */
export interface ConfigOverridesTable {
  project_id: string;
  level: string;
  branch_id: string;
  config: string;
  source: string | null;
  updated_at: number;
}

/** An image uploaded as a base64 `data:` URL, served at `/images/{id}` (core/images). */
export interface StoredImagesTable {
  id: string;
  project_id: string;
  /** One of the allowed raster types (`image/png`, `image/jpeg`, `image/gif`, `image/webp`). */
  content_type: string;
  data_base64: string;
  byte_length: number;
  created_at: number;
}

/** Data vault entries (migration 0014), values sealed at rest. */
export interface DataVaultEntriesTable {
  project_id: string;
  store_id: string;
  hashed_key: string;
  sealed_value: string;
  key_id: string;
  created_at: number;
  updated_at: number;
}

/** Assistant threads (migration 0018): one per project and client-chosen id, owned by one owner. */
export interface AiChatThreadsTable {
  project_id: string;
  id: string;
  /** The owner's internal-project user id, or `key:<project id>` for admin-key callers. */
  owner: string;
  title: string;
  created_at: number;
  updated_at: number;
}

/** Assistant thread messages (migration 0018), ordered by `seq`; `content` is JSON text. */
export interface AiChatMessagesTable {
  project_id: string;
  thread_id: string;
  seq: number;
  content: string;
  created_at: number;
}

/** Model tokens spent per project and UTC day (`YYYY-MM-DD`), for the assistant's budget. */
export interface AiTokenUsageTable {
  project_id: string;
  day: string;
  tokens: number;
}
