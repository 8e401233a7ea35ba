// The home page, a server component: reads the signed-in user on the server with getUser().
import { exampleAuth } from '../lib/gatehouse.mjs';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const auth = await exampleAuth();
  const user = await auth.next.getUser();
  return (
    <main>
      {user ? (
        <h1>Signed in as {user.primaryEmail ?? user.id}</h1>
      ) : (
        <>
          <h1>Not signed in</h1>
          <p>
            <a href={`${auth.signInUrl}?after_auth_return_to=%2F`}>Sign in</a> ·{' '}
            <a href={`${auth.signUpUrl}?after_auth_return_to=%2F`}>Sign up</a>
          </p>
        </>
      )}
      <p>
        Served by Next.js; Gatehouse at /auth. <a href="/protected">A protected page</a>
      </p>
    </main>
  );
}
