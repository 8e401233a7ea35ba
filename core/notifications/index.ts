export { listNotificationPreferences } from './list-notification-preferences.ts';
export { updateNotificationPreference } from './update-notification-preference.ts';
export { NOTIFICATION_CATEGORIES, findCategory, type NotificationCategory } from './categories.ts';
export { usersAccepting, userPreferences } from './preferences.ts';
export { unsubscribeViaLink, unsubscribeOneClick, createUnsubscribeLink } from './unsubscribe.ts';
