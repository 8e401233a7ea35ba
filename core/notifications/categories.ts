/** A notification category (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email): transactional ones cannot be disabled. */
export interface NotificationCategory {
  id: string;
  name: string;
  /** Default when the user has no preference. */
  defaultEnabled: boolean;
  canDisable: boolean;
}

/** The built-in categories, with the upstream ids. */
export const NOTIFICATION_CATEGORIES: readonly NotificationCategory[] = [
  { id: '7bb82d33-2f54-4a3d-9d23-82739e0d66ef', name: 'Transactional', defaultEnabled: true, canDisable: false },
  { id: '4f6f8873-3d04-46bd-8bef-18338b1a1b4c', name: 'Marketing', defaultEnabled: true, canDisable: true },
];

/** The category with this id or name (case-insensitive name), or null. */
export function findCategory(idOrName: string): NotificationCategory | null {
  const key = idOrName.toLowerCase();
  return NOTIFICATION_CATEGORIES.find((c) => c.id === idOrName || c.name.toLowerCase() === key) ?? null;
}
