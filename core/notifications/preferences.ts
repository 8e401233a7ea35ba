import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import { NOTIFICATION_CATEGORIES, type NotificationCategory } from './categories.ts';
import { readDisabled, readPreferences } from './queries.ts';
import * as v from 'valibot';
import { component, listOutput } from '../operations/output.ts';

/** One notification category with the user's setting; transactional ones cannot be disabled. */
export const NotificationPreferenceOutput = component(
  'NotificationPreference',
  v.strictObject({
    notification_category_id: v.string(),
    notification_category_name: v.string(),
    enabled: v.boolean(),
    can_disable: v.boolean(),
  }),
);

/** `{items: NotificationPreference[], is_paginated: false}`. */
export const NotificationPreferenceListOutput = listOutput(NotificationPreferenceOutput);

/** The wire item `{notification_category_id, notification_category_name, enabled, can_disable}`. */
export function toWirePreference(category: NotificationCategory, enabled: boolean) {
  return { notification_category_id: category.id, notification_category_name: category.name, enabled, can_disable: category.canDisable };
}

/** Every category with the user's effective setting. */
export async function userPreferences(db: Kysely<Database>, projectId: string, userId: string) {
  const stored = await readPreferences(db, projectId, userId);
  return NOTIFICATION_CATEGORIES.map((c) => toWirePreference(c, c.canDisable ? (stored.get(c.id) ?? c.defaultEnabled) : true));
}

/**
 * The subset of `userIds` that accept email of `category` (transactional categories always do).
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email "send-email respects notification preferences"
 */
export async function usersAccepting(
  db: Kysely<Database>,
  projectId: string,
  userIds: string[],
  category: NotificationCategory,
): Promise<Set<string>> {
  if (!category.canDisable || userIds.length === 0) return new Set(userIds);
  const disabled = await readDisabled(db, projectId, userIds);
  return new Set(userIds.filter((id) => !disabled.get(id)?.has(category.id)));
}
