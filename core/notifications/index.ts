export { listNotificationPreferences } from './list-notification-preferences.ts';
export { updateNotificationPreference } from './update-notification-preference.ts';
export { findCategory } from './categories.ts';
export { usersAccepting } from './preferences.ts';
export { unsubscribeViaLink, unsubscribeOneClick, createUnsubscribeLink } from './unsubscribe.ts';
