import { open, seal } from '../lib/secret-box.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Runtime } from '../runtime.ts';
import { deleteExpiredFlows, insertFlow, takeFlow } from './queries.ts';
import type { ProviderFlowSecrets } from './providers/exchange.ts';
import type { BotChallengeAssessment } from '../bot-challenge/index.ts';

/** How long a user may spend at the provider: 10 minutes, as upstream's outer OAuth flow. */
export const OUTER_FLOW_TTL_MS = 10 * 60 * 1000;

const FLOW_KEY_INFO = 'gatehouse oauth flows v1';

/** What Gatehouse remembers between sending the user to a provider and its callback. */
export interface OuterFlow {
  projectId: string;
  providerId: string;
  /** The app's redirect_uri (fragment removed), state, PKCE challenge and scopes. */
  redirectUri: string;
  appState: string;
  codeChallenge: string;
  type: 'authenticate' | 'link';
  /** The signed-in user for `link` (from the `token` parameter). */
  userId: string | null;
  /** That token's session (`refresh_token_id`), checked again at the callback; absent in flows saved before issue 27. */
  sessionId?: string | null;
  providerScope: string | null;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  /** Gatehouse's own state, PKCE verifier and nonce towards the provider. */
  secrets: ProviderFlowSecrets;
  /** The bot challenge checked at authorize (core/bot-challenge); absent in flows saved before it. */
  botChallenge?: BotChallengeAssessment;
}

/**
 * Stores a flow server-side under the SHA-256 of its provider state, its data sealed with
 * AES-256-GCM (the PKCE verifier and nonce never sit in the clear), expiring after 10 minutes.
 */
export async function saveFlow(ctx: OperationContext, flow: OuterFlow): Promise<void> {
  const stateHash = sha256Hex(flow.secrets.state);
  await deleteExpiredFlows(ctx.db, ctx.now);
  await insertFlow(ctx.db, {
    state_hash: stateHash,
    project_id: flow.projectId,
    provider_id: flow.providerId,
    sealed_data: seal(ctx.runtime.deriveKey(FLOW_KEY_INFO), JSON.stringify(flow), stateHash),
    created_at: ctx.now,
    expires_at: ctx.now + OUTER_FLOW_TTL_MS,
  });
}

/** Result of looking up a callback's state: the flow, or why there is none. */
export type TakenFlow = { status: 'ok'; flow: OuterFlow } | { status: 'unknown' } | { status: 'expired'; flow: OuterFlow };

/** Takes (single use) the flow of a provider state. */
export async function takeFlowByState(runtime: Runtime, ctx: OperationContext, state: string): Promise<TakenFlow> {
  const stateHash = sha256Hex(state);
  const row = await takeFlow(ctx.db, stateHash);
  if (!row) return { status: 'unknown' };
  const text = open(runtime.deriveKey(FLOW_KEY_INFO), row.sealed_data, stateHash);
  if (!text) return { status: 'unknown' };
  const flow = JSON.parse(text) as OuterFlow;
  return Number(row.expires_at) < ctx.now ? { status: 'expired', flow } : { status: 'ok', flow };
}
