/**
 * Components written against @stackframe/react's documented hooks (`useUser({ or })` returns the
 * signed-in user for `redirect` / `throw` / `anonymous`, nullable otherwise), compiled with
 * Gatehouse's React bindings (test/types/stack-shaped-types.test.ts). Never rendered.
 */
import type { User } from '../../sdk/index.ts';
import { useUser } from '../../sdk/react.tsx';

export function Profile() {
  const user: User = useUser({ or: 'redirect' });
  const strict: User = useUser({ or: 'throw' });
  const maybe: User | null = useUser();
  return <p onClick={() => void user.signOut()}>{user.displayName ?? strict.primaryEmail ?? maybe?.id}</p>;
}
