/**
 * Cursor pagination over an already sorted list, as `GET /users` does it (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/):
 * `cursor` is the id of the first item of the page; `next_cursor` the id of the first item of the
 * next page, or null. Without `limit` everything from the cursor on is one page.
 */
export function paginate<T extends { id: string }>(
  items: readonly T[],
  options: { cursor?: string; limit?: number },
): { page: T[]; nextCursor: string | null } {
  const start = options.cursor === undefined ? 0 : items.findIndex((i) => i.id === options.cursor);
  if (start < 0) return { page: [], nextCursor: null };
  const end = options.limit === undefined ? items.length : start + options.limit;
  return { page: items.slice(start, end), nextCursor: end < items.length ? items[end]!.id : null };
}
