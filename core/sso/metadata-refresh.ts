import type { Kysely } from 'kysely';
import type { OperationContext } from '../operations/define.ts';
import { createSystemContext } from '../operations/execute.ts';
import { startPollingWorker, type PollingWorker } from '../lib/polling-worker.ts';
import type { Runtime } from '../runtime.ts';
import type { Database } from '../storage/tables.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import type { SsoConnection } from './connection.ts';
import { fetchIdpMetadata } from './idp-metadata.ts';
import { claimMetadataRefresh, findConnection, listStaleMetadataConnections, updateConnectionRow } from './queries.ts';
import { toWireConnection } from './wire.ts';

/** How old fetched IdP metadata may get before the background refresh fetches it again: 24 hours. */
export const METADATA_MAX_AGE_MS = 24 * 3600 * 1000;
/** How often the background refresh looks for stale metadata: every 15 minutes. */
const CHECK_INTERVAL_MS = 15 * 60 * 1000;
/** Connections refreshed per look (the rest wait for the next). */
const BATCH = 20;

/**
 * Fetches a connection's `idp_metadata_url` again (through the outbound guard) and stores the
 * IdP's entity id, SSO URL and signing certificates it now lists, so a certificate rollover
 * announced in the metadata (old and new certificate side by side, then only the new one) is
 * followed without anyone editing the connection. Emits `sso_connection.updated` when a fact
 * changed. Network I/O first, then one short write.
 *
 * @returns the connection as stored afterwards
 * @throws KnownError SSO_IDP_METADATA_INVALID, OAUTH_PROVIDER_URL_NOT_ALLOWED (nothing is changed then)
 */
export async function refreshIdpMetadata(ctx: OperationContext, connection: SsoConnection): Promise<SsoConnection> {
  if (connection.idpMetadataUrl === null) return connection;
  const idp = await fetchIdpMetadata(ctx.runtime, connection.idpMetadataUrl);
  const next: SsoConnection = {
    ...connection,
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    idpCertificates: idp.certificates,
    metadataFetchedAt: ctx.now,
  };
  const changed =
    next.idpEntityId !== connection.idpEntityId ||
    next.idpSsoUrl !== connection.idpSsoUrl ||
    JSON.stringify(next.idpCertificates) !== JSON.stringify(connection.idpCertificates);
  if (changed) next.updatedAt = ctx.now;
  await ctx.transaction(async (tx) => {
    // Only if the connection still reads from the same URL (an update may have changed its source meanwhile).
    const current = await findConnection(tx.db, connection.id);
    if (!current || current.idpMetadataUrl !== connection.idpMetadataUrl) return;
    await updateConnectionRow(tx.db, connection.id, {
      idp_entity_id: next.idpEntityId,
      idp_sso_url: next.idpSsoUrl,
      idp_certificates: JSON.stringify(next.idpCertificates),
      metadata_fetched_at: next.metadataFetchedAt,
      updated_at: next.updatedAt,
    });
    if (changed) await emitWebhookEvent(tx, connection.projectId, 'sso_connection.updated', toWireConnection(ctx.runtime, next));
  });
  return next;
}

/**
 * One pass of the background refresh: claims up to {@link BATCH} connections whose metadata is
 * older than {@link METADATA_MAX_AGE_MS} (moving their `metadata_fetched_at`, so another process
 * sharing the database skips them) and refreshes each. A failed fetch is logged and retried after
 * the next max age; the connection keeps its current certificates.
 */
export async function refreshStaleMetadata(runtime: Runtime, isStopped: () => boolean = () => false): Promise<void> {
  const db: Kysely<Database> = runtime.db;
  const now = runtime.clock.now();
  for (const connection of await listStaleMetadataConnections(db, now - METADATA_MAX_AGE_MS, BATCH)) {
    if (isStopped()) return;
    if (!(await claimMetadataRefresh(db, connection.id, connection.metadataFetchedAt, now))) continue;
    const ctx = createSystemContext(runtime);
    try {
      await refreshIdpMetadata(ctx, connection);
      await ctx.flush();
    } catch (error) {
      runtime.log.warn({ connection_id: connection.id, err: String(error) }, 'SAML metadata refresh failed');
    }
  }
}

const workers = new WeakMap<Runtime, PollingWorker>();

/** Starts the background metadata refresh of `runtime` (a first pass at once, then every 15 minutes). */
export function startMetadataRefresh(runtime: Runtime): void {
  if (workers.has(runtime)) return;
  const worker = startPollingWorker(
    (isStopped) => refreshStaleMetadata(runtime, isStopped),
    CHECK_INTERVAL_MS,
    (error) => runtime.log.error({ err: String(error) }, 'SAML metadata refresh run failed'),
  );
  workers.set(runtime, worker);
}

/** Stops the background metadata refresh and waits for the pass in progress. */
export async function stopMetadataRefresh(runtime: Runtime): Promise<void> {
  const worker = workers.get(runtime);
  if (!worker) return;
  workers.delete(runtime);
  await worker.stop();
}
