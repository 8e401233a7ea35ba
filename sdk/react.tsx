/**
 * React bindings (`gatehouse-react`): `GatehouseProvider`, `useApp`, `useUser`, `useTeams`, …
 * Reads are suspense-friendly (they suspend while the first fetch runs, so wrap them in
 * `<Suspense>`) and come from the app's cache, so many components reading one thing make one
 * request and re-render together (no refetch storms).
 */
import { createContext, useContext, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import type { ClientApp, OrOption } from './client-app.ts';
import { UserNotSignedInError } from './errors.ts';
import { ActiveSession, ApiKey, ContactChannel, NotificationCategory, Passkey, Team } from './objects.ts';
import type { User } from './user.ts';
import { routePath } from './routes.ts';
import type {
  WireApiKey,
  WireClientProject,
  WireContactChannel,
  WireList,
  WireNotificationCategory,
  WirePasskey,
  WireSession,
  WireTeam,
  WireUser,
} from './wire.ts';

const AppContext = createContext<ClientApp | null>(null);

/** Makes `app` available to the hooks and components below it. */
export function GatehouseProvider(props: { app: ClientApp; children?: ReactNode }) {
  return <AppContext.Provider value={props.app}>{props.children}</AppContext.Provider>;
}

/** The app of the nearest `GatehouseProvider` (throws outside one). */
export function useApp<T extends ClientApp = ClientApp>(): T {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp must be used inside a <GatehouseProvider>.');
  return app as T;
}

/**
 * The cached answer of `GET key` for the current session: suspends while pending, throws the
 * error, re-renders on change and on sign-in / sign-out.
 */
export function useCached<T>(key: string): T {
  const app = useApp();
  const [, force] = useReducer((x: number) => x + 1, 0);
  useEffect(() => {
    const unsubscribe = app.cache.subscribe(key, force);
    const unsubscribeSession = app.onSessionChange(force);
    return () => {
      unsubscribe();
      unsubscribeSession();
    };
  }, [app, key]);
  const state = app.cache.getState(key);
  if (state.status === 'pending') throw state.promise;
  if (state.status === 'error') throw state.error;
  return state.value as T;
}

const never = new Promise<never>(() => {});
const pendingAnonymous = new WeakMap<ClientApp, Promise<void>>();
const redirected = new WeakSet<ClientApp>();

/**
 * The signed-in user, or per `or` (default `return-null`): `redirect` sends the browser to
 * sign-in (carrying `after_auth_return_to`) and suspends; `throw` throws UserNotSignedInError;
 * `anonymous` signs up an anonymous user and suspends until it exists. Typed as Stack's
 * `useUser`: with `or` `redirect`, `throw` or `anonymous` the answer is the signed-in user.
 */
export function useUser(options: { or: 'redirect' | 'throw' | 'anonymous' }): User;
export function useUser(options?: { or?: OrOption }): User | null;
export function useUser(options: { or?: OrOption } = {}): User | null {
  const app = useApp();
  const wire = useCached<WireUser | null>(routePath('users.getCurrent'));
  const user = useMemo(
    () => (wire && (!wire.is_anonymous || options.or === 'anonymous') ? app.userFromWire(wire) : null),
    [app, wire, options.or],
  );
  if (user) return user;
  switch (options.or) {
    case 'throw':
      throw new UserNotSignedInError();
    case 'redirect':
      // After signOut() its own redirect (to after-sign-out) is under way: not to sign-in.
      if (!redirected.has(app) && !app.signedOutByUser) {
        redirected.add(app);
        void app.redirectToSignIn();
      }
      throw never;
    case 'anonymous': {
      let p = pendingAnonymous.get(app);
      if (!p) {
        p = app.signUpAnonymously().finally(() => pendingAnonymous.delete(app));
        pendingAnonymous.set(app, p);
      }
      throw p;
    }
    default:
      return null;
  }
}

/** The project's public settings (`GET /projects/current`). */
export function useProject(): WireClientProject {
  return useCached<WireClientProject>(routePath('projects.getCurrent'));
}

function useList<W, O>(key: string, map: (w: W) => O): O[] {
  const list = useCached<WireList<W>>(key);
  return useMemo(() => list.items.map(map), [list]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** The current user's teams (`GET /teams?user_id=me`). */
export function useTeams(): Team[] {
  const app = useApp();
  return useList<WireTeam, Team>(`${routePath('teams.list')}?user_id=me`, (t) => new Team(app.core, t));
}

/** The current user's contact channels. */
export function useContactChannels(): ContactChannel[] {
  const app = useApp();
  return useList<WireContactChannel, ContactChannel>('/contact-channels?user_id=me', (c) => new ContactChannel(app.core, c));
}

/** The current user's sessions. */
export function useActiveSessions(): ActiveSession[] {
  return useList<WireSession, ActiveSession>(`${routePath('sessions.list')}?user_id=me`, (s) => new ActiveSession(s));
}

/** The current user's API keys. */
export function useApiKeys(): ApiKey[] {
  const app = useApp();
  return useList<WireApiKey, ApiKey>('/user-api-keys?user_id=me', (k) => new ApiKey(app.core, k));
}

/** The current user's passkeys (`GET /passkeys?user_id=me`, a Gatehouse extension). */
export function usePasskeys(): Passkey[] {
  const app = useApp();
  return useList<WirePasskey, Passkey>('/passkeys?user_id=me', (p) => new Passkey(app.core, p));
}

/** The current user's notification categories. */
export function useNotificationCategories(): NotificationCategory[] {
  const app = useApp();
  return useList<WireNotificationCategory, NotificationCategory>(
    routePath('notifications.listPreferences', { user_id: 'me' }),
    (c) => new NotificationCategory(app.core, c),
  );
}

export type { User, Team, ContactChannel, ActiveSession, ApiKey, NotificationCategory, Passkey };
