export { listNotificationPreferences } from './list-notification-preferences.ts';
export { updateNotificationPreference } from './update-notification-preference.ts';
export { findCategory } from './categories.ts';
export { usersAccepting } from './preferences.ts';
export { createUnsubscribeLink } from './unsubscribe.ts';
export { unsubscribeViaLink } from './unsubscribe-via-link.ts';
export { unsubscribeOneClick } from './unsubscribe-one-click.ts';
