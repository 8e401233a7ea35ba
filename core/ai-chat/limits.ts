import { KnownError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { OperationContext } from '../operations/define.ts';
import { enforceRateLimit } from '../throttle/index.ts';
import { addTokens, tokensUsed } from './queries.ts';
import { ownerOf } from './threads.ts';

/** The UTC day (`YYYY-MM-DD`) of an epoch-ms time: the budget's period. */
export function budgetDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * Checks the assistant's limits before a question goes to the model: the owner's rate
 * (`ai_chat_per_owner`, a token bucket in the database, core/throttle) and the project's daily
 * token budget (`runtime.ai.dailyTokenBudget`; 0 turns it off). The budget is checked before, and
 * counted after, each answer, so one answer may overshoot it once.
 *
 * @throws RateLimitError (429 with Retry-After); KnownError AI_CHAT_TOKEN_BUDGET_EXCEEDED.
 */
export async function checkAssistantLimits(ctx: OperationContext<RequestAuth>, owner: string = ownerOf(ctx.auth)): Promise<void> {
  await enforceRateLimit(ctx, 'ai_chat_per_owner', owner);
  const budget = ctx.runtime.ai.dailyTokenBudget;
  if (budget > 0 && (await tokensUsed(ctx.db, ctx.auth.project.id, budgetDay(ctx.now))) >= budget) {
    throw new KnownError('AI_CHAT_TOKEN_BUDGET_EXCEEDED', { daily_token_budget: budget });
  }
}

/** Counts the tokens of one answer against the project's budget for today. */
export async function spendTokens(ctx: OperationContext<RequestAuth>, tokens: number): Promise<void> {
  if (tokens > 0) await addTokens(ctx.runtime.db, ctx.auth.project.id, budgetDay(ctx.now), tokens);
}
