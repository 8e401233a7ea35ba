import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { normalizeEmail } from '../lib/email.ts';
import { findUser, findUserByAuthEmail, restrictedReasonOf } from '../users/index.ts';
import { recentSignInFailures } from '../sign-in-log/index.ts';
import { projectSummary } from './context.ts';
import { parseJsonText } from '../lib/json-text.ts';

/**
 * The assistant's read-only tools, offered in the standard tool-calling format (OpenAI
 * chat-completions `tools`). Each runs with the caller's own admin access to the one project of
 * the request: no tool takes a project id, so none can reach another project, and none returns a
 * secret (password hashes, TOTP secrets, keys) or a user's metadata.
 */
export const TOOLS: ChatCompletionFunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup_user_by_email',
      description: 'Find the user of this project who signs in with an email address, and how they can sign in.',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string', description: 'the email address' } },
        required: ['email'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'explain_sign_in_settings',
      description:
        'The sign-in settings of this project (which methods are on, sign-up, email verification, OAuth providers) and what each means.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_recent_failed_sign_ins',
      description:
        'Recent failed sign-ins of this project, newest first: when, which user (if the address belonged to one), the factor and the reason.',
      parameters: {
        type: 'object',
        properties: {
          hours: { type: 'integer', minimum: 1, maximum: 720, description: 'how far back (default 24)' },
          limit: { type: 'integer', minimum: 1, maximum: 50, description: 'at most this many (default 20)' },
        },
        additionalProperties: false,
      },
    },
  },
];

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * Runs one tool call for the request's project and returns its result (a JSON value). Bad
 * arguments and unknown tools give `{error}` for the model to read, never an exception.
 */
export async function runTool(ctx: OperationContext<RequestAuth>, name: string, argsText: string): Promise<unknown> {
  let args: Record<string, unknown>;
  try {
    const parsed = argsText.trim() === '' ? {} : parseJsonText(argsText);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'arguments must be a JSON object' };
    args = parsed as Record<string, unknown>;
  } catch {
    return { error: 'arguments are not valid JSON (or nested deeper than 64 levels)' };
  }
  const project = ctx.auth.project;
  const allowed = TOOLS.find((t) => t.function.name === name);
  if (!allowed) return { error: `no tool named ${name}` };
  const known = Object.keys((allowed.function.parameters as { properties: object }).properties);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length > 0) return { error: `unknown arguments: ${unknown.join(', ')} (tools only read the current project)` };

  if (name === 'lookup_user_by_email') {
    if (typeof args.email !== 'string' || !args.email.includes('@')) return { error: 'email must be an email address' };
    const user = await findUserByAuthEmail(ctx.db, project.id, normalizeEmail(args.email));
    if (!user)
      return {
        found: false,
        note: 'No user of this project signs in with that address (it may be unverified-only, on another project, or never signed up).',
      };
    return {
      found: true,
      user: {
        id: user.id,
        display_name: user.display_name,
        primary_email_verified: user.primary_email_verified,
        signed_up_at: iso(user.signed_up_at),
        last_active_at: iso(user.last_active_at),
        is_anonymous: user.is_anonymous,
        sign_in_methods: {
          password: user.password_hash !== null,
          otp_or_magic_link: user.otp_auth_enabled,
          passkey: user.passkey_auth_enabled,
        },
        two_factor_enabled: user.totp_secret_base64 !== null,
        restricted_reason: restrictedReasonOf(user, project.config)?.type ?? null,
        restricted_by_admin: user.restricted_by_admin,
        dashboard_page: `/projects/${project.id}/users/${user.id}`,
      },
    };
  }
  if (name === 'explain_sign_in_settings') {
    const s = projectSummary(project).sign_in;
    return {
      settings: s,
      notes: [
        s.password_enabled
          ? 'Password sign-in is on.'
          : 'Password sign-in is off: sign-ins with a password answer PASSWORD_AUTHENTICATION_NOT_ENABLED.',
        s.magic_link_enabled ? 'Magic links / one-time codes are on.' : 'Magic links are off (Auth methods page → Magic link).',
        s.passkey_enabled ? 'Passkeys are on.' : 'Passkeys are off.',
        s.sign_up_enabled
          ? 'New users may sign up.'
          : 'Sign-up is closed: only existing users (or users created by the server) can sign in.',
        s.require_email_verification
          ? 'Users with an unverified primary email are restricted until they verify it.'
          : 'Email verification is not required to use the app.',
        s.oauth_providers.length === 0
          ? 'No OAuth providers are configured.'
          : `OAuth providers: ${s.oauth_providers.map((p) => `${p.id}${p.enabled ? '' : ' (disabled)'}`).join(', ')}.`,
      ],
    };
  }
  // list_recent_failed_sign_ins
  const hours = Number.isInteger(args.hours) ? Math.min(720, Math.max(1, args.hours as number)) : 24;
  const limit = Number.isInteger(args.limit) ? Math.min(50, Math.max(1, args.limit as number)) : 20;
  const rows = await recentSignInFailures(ctx.db, project.id, ctx.now, hours * 3_600_000, limit);
  const names = new Map<string, string | null>();
  for (const r of rows) {
    if (r.user_id && !names.has(r.user_id)) names.set(r.user_id, (await findUser(ctx.db, project.id, r.user_id))?.display_name ?? null);
  }
  return {
    hours,
    failures: rows.map((r) => ({
      at: iso(r.created_at),
      user_id: r.user_id,
      user_display_name: r.user_id ? (names.get(r.user_id) ?? null) : null,
      factor: r.factor,
      reason: r.reason,
    })),
  };
}
