import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import {
  createCore,
  KnownError,
  StatusError,
  type Core,
  type CoreOptions,
  type Credentials,
  type Dialect,
  type InvokeInput,
  type StatusKind,
} from '../../core/index.ts';
import { manualClock } from '../../core/lib/clock.ts';
import { createMigratedTestDatabase, testDialects, type TestDatabase } from './dialects.ts';
import { INTERNAL_KEYS } from './internal-keys.ts';

/**
 * A core opened in the test process with no HTTP at all: operations are called through
 * `core.invoke` with typed credentials. For tests of a domain's behaviour; the protocol itself
 * (headers, status codes, bodies) stays tested over HTTP (test/helpers/server.ts).
 */
export interface TestCore {
  core: Core;
  dialect: Dialect;
  database: TestDatabase;
  /** The injected clock: tests move time with `clock.advance(ms)`. */
  clock: ReturnType<typeof manualClock>;
  /** The options the core was opened with (beyond the test settings). */
  options: Partial<Omit<CoreOptions, 'storage' | 'clock'>>;
  /** Runs an operation and returns its value; a known error fails the test with its code. */
  call<T = any>(operationId: string, credentials: Credentials, input?: InvokeInput): Promise<T>;
  /**
   * Runs an operation that must refuse with `code` (and, when given, the HTTP `status` its
   * catalogue entry has); returns the error (details, message: the wire's `error`).
   */
  refuses(operationId: string, credentials: Credentials, input: InvokeInput, code: string, status?: number): Promise<KnownError>;
  /**
   * Runs an operation that must refuse with a plain status error of `kind` (no known-error code:
   * the host answers its message as the whole text body); returns the error.
   */
  refusesPlain(operationId: string, credentials: Credentials, input: InvokeInput, kind: StatusKind): Promise<StatusError>;
  close(): Promise<void>;
}

/** The internal project's credentials with its known keys. */
export const internalCredentials = {
  client: { projectId: 'internal', accessType: 'client', publishableClientKey: INTERNAL_KEYS.publishableClientKey },
  server: { projectId: 'internal', accessType: 'server', secretServerKey: INTERNAL_KEYS.secretServerKey },
  admin: { projectId: 'internal', accessType: 'admin', superSecretAdminKey: INTERNAL_KEYS.superSecretAdminKey },
} satisfies Record<string, Credentials>;

/**
 * Opens a core on a fresh database of `dialect` with the settings of the test server (strict
 * error and output declarations, an injected clock, known internal keys, cheap password hashes);
 * `options` override those settings (e.g. `smtpUrl` for a test SMTP receiver,
 * `testPasswordHashing: false` for the real argon2id cost).
 */
export async function startTestCore(dialect: Dialect, options: Partial<Omit<CoreOptions, 'storage' | 'clock'>> = {}): Promise<TestCore> {
  const database = await createMigratedTestDatabase(dialect);
  const clock = manualClock(Date.now());
  const core = await openCore(database, clock, options).catch(async (error: unknown) => {
    await database.drop().catch(() => {});
    throw error;
  });
  const call = async <T>(operationId: string, credentials: Credentials, input: InvokeInput = {}): Promise<T> => {
    try {
      return await core.invoke<T>(operationId, credentials, input);
    } catch (error) {
      if (error instanceof KnownError) assert.fail(`${operationId} refused with ${error.code}: ${error.message}`);
      throw error;
    }
  };
  const refuses = async (operationId: string, credentials: Credentials, input: InvokeInput, code: string, status?: number) => {
    try {
      await core.invoke(operationId, credentials, input);
    } catch (error) {
      assert.ok(error instanceof KnownError, `${operationId} threw ${String(error)} instead of ${code}`);
      assert.equal(error.code, code, `${operationId}: expected ${code}, got ${error.code}: ${error.message}`);
      if (status !== undefined) assert.equal(error.status, status, `${code}'s status`);
      return error;
    }
    return assert.fail(`${operationId} answered instead of refusing with ${code}`);
  };
  const refusesPlain = async (operationId: string, credentials: Credentials, input: InvokeInput, kind: StatusKind) => {
    try {
      await core.invoke(operationId, credentials, input);
    } catch (error) {
      assert.ok(error instanceof StatusError, `${operationId} threw ${String(error)} instead of a plain ${kind} refusal`);
      assert.equal(error.kind, kind, `${operationId}: expected ${kind}, got ${error.kind}: ${error.message}`);
      return error;
    }
    return assert.fail(`${operationId} answered instead of refusing (${kind})`);
  };
  return {
    core,
    dialect,
    database,
    clock,
    options,
    call,
    refuses,
    refusesPlain,
    close: async () => {
      await core.close();
      await database.drop();
    },
  };
}

/** A core on `database` with the test settings (see startTestCore); it closes its storage. */
async function openCore(database: TestDatabase, clock: TestCore['clock'], options: Partial<Omit<CoreOptions, 'storage' | 'clock'>>) {
  const storage = database.open();
  const core = await createCore({
    storage,
    baseUrl: 'http://127.0.0.1:1',
    secret: 'test-secret-do-not-use-in-production',
    clock,
    strictErrors: true,
    environment: 'test',
    seedKeys: INTERNAL_KEYS,
    smtpUrl: null,
    emailPollIntervalMs: 50,
    webhookPollIntervalMs: 50,
    testPasswordHashing: options.environment !== 'production',
    ...options,
  }).catch(async (error: unknown) => {
    await storage.close().catch(() => {});
    throw error;
  });
  return core;
}

/**
 * Another core on `t`'s database, as a second server process would be: its own storage
 * connection, caches and workers, the same settings, secret, keys and clock. For tests of what
 * two processes do at once (concurrent changes of one row). Close it before `t`.
 */
export async function startSecondCore(t: TestCore): Promise<Core> {
  return openCore(t.database, t.clock, t.options);
}

/**
 * Runs `body` once per configured dialect (or per one of `dialects`) against its own core:
 * `describe('<name> [sqlite]', …)`. Use `get()` inside tests to reach it.
 */
export function describeWithCore(
  name: string,
  body: (get: () => TestCore, dialect: Dialect) => void,
  options: Parameters<typeof startTestCore>[1] = {},
  dialects: Dialect[] = testDialects(),
): void {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      let testCore: TestCore | undefined;
      before(async () => {
        testCore = await startTestCore(dialect, options);
      });
      after(async () => {
        await testCore?.close();
      });
      body(() => {
        if (!testCore) throw new Error('core not started');
        return testCore;
      }, dialect);
    });
  }
}

/**
 * An internal-project user (a dashboard owner) with an access token, created with the server
 * key, and the personal team it selected.
 */
export async function createCoreInternalUser(t: TestCore, fields: Record<string, unknown> = {}) {
  const user = await t.call<{ id: string }>('users.create', internalCredentials.server, { body: fields });
  const session = await t.call<{ access_token: string; refresh_token: string }>('sessions.create', internalCredentials.server, {
    body: { user_id: user.id, expires_in_millis: 31536000000, is_impersonation: false },
  });
  const me = await t.call<{ selected_team_id: string }>('users.getCurrent', {
    ...internalCredentials.client,
    accessToken: session.access_token,
  });
  return { id: user.id, accessToken: session.access_token, refreshToken: session.refresh_token, selectedTeamId: me.selected_team_id };
}

/**
 * A fresh project owned by a fresh internal user, as test/helpers/api.ts `createProject` but
 * in-process: credentials for each access level that use the owner's admin access token.
 */
export async function createCoreProject(t: TestCore, config: Record<string, unknown> = {}) {
  const owner = await createCoreInternalUser(t);
  const project = await t.call<{ id: string }>(
    'projects.create',
    { ...internalCredentials.client, accessToken: owner.accessToken },
    {
      body: {
        display_name: 'New Project',
        owner_team_id: owner.selectedTeamId,
        config: { credential_enabled: true, allow_localhost: true, ...config },
      },
    },
  );
  const as = (accessType: 'client' | 'server' | 'admin'): Credentials => ({
    projectId: project.id,
    accessType,
    adminAccessToken: owner.accessToken,
  });
  return { project, projectId: project.id, owner, client: as('client'), server: as('server'), admin: as('admin') };
}

/**
 * A user of a test project created with the server credentials and signed in: its id, access
 * token, and client credentials carrying that token (test/helpers/project-user.ts in-process).
 */
export async function createCoreUser(t: TestCore, p: { server: Credentials; client: Credentials }, fields: Record<string, unknown> = {}) {
  const user = await t.call<{ id: string }>('users.create', p.server, { body: fields });
  const session = await t.call<{ access_token: string }>('sessions.create', p.server, {
    body: { user_id: user.id, expires_in_millis: 31536000000, is_impersonation: false },
  });
  return { id: user.id, accessToken: session.access_token, client: { ...p.client, accessToken: session.access_token } as Credentials };
}
