// Protected by proxy.ts (no session cookie: redirected to sign-in); the user is still read and
// checked here, since the proxy only sees that a session cookie is present.
import { redirect } from 'next/navigation';
import { exampleAuth } from '../../lib/gatehouse.mjs';

export const dynamic = 'force-dynamic';

export default async function Protected() {
  const user = await (await exampleAuth()).next.getUser();
  if (!user) redirect('/sign-in?after_auth_return_to=%2Fprotected');
  return (
    <main>
      <h1>Protected page for {user.primaryEmail ?? user.id}</h1>
    </main>
  );
}
