import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { listUserSessions } from './queries.ts';
import { listOutput, component, MillisOutput } from '../operations/output.ts';
import { describeDevice } from './device.ts';
import type { Place } from '../lib/geoip.ts';

const NullableText = v.nullable(v.string());
const NullableNumber = v.nullable(v.number());

/** Upstream's `geoInfoSchema` (stack-shared `utils/geo.tsx`); parts the database lacks are null. */
const PlaceOutput = v.strictObject({
  ip: v.string(),
  countryCode: NullableText,
  regionCode: NullableText,
  cityName: NullableText,
  latitude: NullableNumber,
  longitude: NullableNumber,
  tzIdentifier: NullableText,
});

/** The stored place JSON of a session, or undefined (none, or unreadable). */
function placeOf(text: string | null): Place | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Place;
  } catch {
    return undefined;
  }
}

/** A session as listed (`created_at` and `last_used_at` in epoch ms). */
export const SessionOutput = component(
  'Session',
  v.strictObject({
    id: v.string(),
    user_id: v.string(),
    created_at: MillisOutput,
    last_used_at: MillisOutput,
    is_impersonation: v.boolean(),
    is_current_session: v.boolean(),
    /** Where the session was last used (upstream's key), only when the operator configured a GeoIP database. */
    last_used_at_end_user_ip_info: v.optional(PlaceOutput),
    /** Gatehouse extension: the `User-Agent` that created or last refreshed the session, or null. */
    user_agent: NullableText,
    /** Gatehouse extension: the browser read from `user_agent` (`Chrome 140`), or null. */
    browser: NullableText,
    /** Gatehouse extension: the operating system read from `user_agent` (`macOS Sonoma`), or null. */
    os: NullableText,
  }),
);

/**
 * Lists a user's sessions, newest first, marking the caller's own
 * (`is_current_session`), with each one's device (the Gatehouse extension fields `user_agent`,
 * `browser`, `os`) and, when the operator configured a GeoIP database, the approximate place of
 * its last use (`last_used_at_end_user_ip_info`, upstream's key). Impersonation sessions are listed only for admins (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/sessions/).
 */
export const listSessions = defineOperation({
  id: 'sessions.list',
  method: 'GET',
  path: '/auth/sessions',
  summary: "List a user's sessions.",
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(SessionOutput),
  async run(ctx, { query }) {
    const { project, accessType, token } = ctx.auth;
    const userId = resolveUserId(ctx.auth, query.user_id, 'Client can only list sessions for their own user.');
    const rows = await listUserSessions(ctx.db, project.id, userId);
    const items = rows
      .filter((s) => accessType === 'admin' || !s.is_impersonation)
      .map((s) => {
        const place = placeOf(s.last_used_place);
        return {
          id: s.id,
          user_id: s.user_id,
          created_at: Number(s.created_at),
          last_used_at: Number(s.last_used_at),
          is_impersonation: s.is_impersonation,
          is_current_session: token?.refresh_token_id === s.id,
          ...(place ? { last_used_at_end_user_ip_info: place } : {}),
          user_agent: s.user_agent,
          ...describeDevice(s.user_agent),
        };
      });
    return { items, is_paginated: false };
  },
});
