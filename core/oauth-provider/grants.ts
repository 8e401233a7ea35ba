import type { OperationContext } from '../operations/define.ts';
import { createSystemContext } from '../operations/execute.ts';
import type { Runtime } from '../runtime.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { deleteGrantRows, deletePayloadRow, type PayloadRow } from './queries.ts';
import { payloadHash } from './payload-hash.ts';

/** The model under which `oidc-provider` stores grants (one user's authorization of one client). */
export const GRANT_MODEL = 'Grant';

/** A grant as Gatehouse reads it from the provider's stored payload. */
export interface StoredGrant {
  grantId: string;
  clientId: string;
  userId: string;
  /** The OpenID scopes and every resource's scopes, once each. */
  scopes: string[];
  /** Epoch ms. */
  issuedAt: number;
}

/** The grant a stored `Grant` row holds, or null when its payload is unreadable. */
export function grantFromRow(row: Pick<PayloadRow, 'payload'>): StoredGrant | null {
  let p: Record<string, any>;
  try {
    p = JSON.parse(row.payload) as Record<string, any>;
  } catch {
    return null;
  }
  if (typeof p.jti !== 'string' || typeof p.clientId !== 'string' || typeof p.accountId !== 'string') return null;
  const scopes = new Set<string>(String(p.openid?.scope ?? '').split(' '));
  for (const resource of Object.values<unknown>(p.resources ?? {})) for (const s of String(resource).split(' ')) scopes.add(s);
  scopes.delete('');
  return { grantId: p.jti, clientId: p.clientId, userId: p.accountId, scopes: [...scopes], issuedAt: Number(p.iat ?? 0) * 1000 };
}

/**
 * Ends a grant inside the caller's transaction: every token and code of it and the grant itself
 * are deleted (its refresh tokens stop working at once), and `oauth_grant.revoked` is recorded.
 */
export async function revokeStoredGrant(ctx: OperationContext, projectId: string, grant: StoredGrant): Promise<void> {
  await deleteGrantRows(ctx.db, projectId, grant.grantId, GRANT_MODEL);
  await deletePayloadRow(ctx.db, projectId, GRANT_MODEL, payloadHash(grant.grantId));
  await emitWebhookEvent(ctx, projectId, 'oauth_grant.revoked', {
    grant_id: grant.grantId,
    client_id: grant.clientId,
    user_id: grant.userId,
  });
}

/** Runs `fn` in a transaction of a context outside any request, then delivers what it queued (webhooks). */
export async function inSystemTransaction(runtime: Runtime, fn: (ctx: OperationContext) => Promise<void>): Promise<void> {
  const ctx = createSystemContext(runtime);
  await ctx.transaction(fn);
  await ctx.flush();
}

/** Records `oauth_grant.created`: user `grant.userId` authorized the client (consent given, or a `skip_consent` client approved). */
export function recordGrantCreated(runtime: Runtime, projectId: string, grant: Omit<StoredGrant, 'issuedAt'>): Promise<void> {
  return inSystemTransaction(runtime, async (ctx) => {
    await emitWebhookEvent(ctx, projectId, 'oauth_grant.created', {
      grant_id: grant.grantId,
      client_id: grant.clientId,
      user_id: grant.userId,
      scopes: grant.scopes,
    });
  });
}
