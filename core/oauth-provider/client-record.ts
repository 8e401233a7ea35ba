import type { Runtime } from '../runtime.ts';
import { open, seal } from '../lib/secret-box.ts';
import type { OAuthClientRow } from './queries.ts';

/** Who registered a client: the admin API or RFC 7591 dynamic registration. */
export type RegisteredBy = 'admin' | 'dynamic';

/** Gatehouse's own client fields, kept beside the RFC 7591 metadata and never handed to the provider. */
const GATEHOUSE_FIELDS = ['skip_consent'] as const;

const secretKey = (runtime: Runtime, projectId: string) => runtime.deriveKey(`oauth-provider/client-secret/${projectId}`);
const secretAad = (projectId: string, clientId: string) => `${projectId}\n${clientId}\nclient_secret`;

/**
 * A client's row from its metadata (RFC 7591 §2 names, plus `skip_consent`): the secret, when
 * there is one, sealed (AES-256-GCM under a key derived from the server secret per project, the
 * project and client id as associated data); `skip_consent` only ever true for admin clients.
 */
export function sealedClientRow(
  runtime: Runtime,
  projectId: string,
  metadata: Record<string, unknown>,
  options: { registeredBy: string; createdAt: number; now: number },
): OAuthClientRow {
  const { client_secret: secret, ...rest } = metadata;
  const clientId = String(metadata.client_id);
  if (options.registeredBy !== 'admin') delete rest.skip_consent;
  return {
    client_id: clientId,
    project_id: projectId,
    metadata: JSON.stringify(rest),
    client_secret_sealed: typeof secret === 'string' ? seal(secretKey(runtime, projectId), secret, secretAad(projectId, clientId)) : null,
    registered_by: options.registeredBy,
    created_at: options.createdAt,
    updated_at: options.now,
  };
}

/** The stored metadata of a client (without its secret), or an empty object when unreadable. */
export function clientMetadata(row: OAuthClientRow): Record<string, unknown> {
  try {
    const parsed = JSON.parse(row.metadata) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Whether the client may skip the consent page (admin clients marked `skip_consent`). */
export function skipsConsent(row: OAuthClientRow): boolean {
  return row.registered_by === 'admin' && clientMetadata(row).skip_consent === true;
}

/** The client as `oidc-provider` reads it: RFC 7591 metadata with the secret opened, Gatehouse fields left out. */
export function clientForProvider(runtime: Runtime, row: OAuthClientRow): Record<string, unknown> {
  const metadata = clientMetadata(row);
  for (const field of GATEHOUSE_FIELDS) delete metadata[field];
  if (row.client_secret_sealed) {
    const secret = open(secretKey(runtime, row.project_id), row.client_secret_sealed, secretAad(row.project_id, row.client_id));
    if (secret !== null) metadata.client_secret = secret;
  }
  return metadata;
}
