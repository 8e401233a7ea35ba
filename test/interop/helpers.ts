import * as sdk108 from '@stackframe/js';
import * as sdk102 from 'stackframe-js-2-8-102';
import type { TestServer } from '../helpers/server.ts';
import { createProject, createProjectKeys } from '../helpers/api.ts';

/**
 * The official Stack Auth JS SDK in both header generations (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts): 2.8.108
 * sends only `x-hexclave-*` request headers, 2.8.102 only `x-stack-*`.
 */
export const SDKS = [
  { name: '@stackframe/js 2.8.108 (x-hexclave-*)', module: sdk108 as unknown as StackSdk },
  { name: '@stackframe/js 2.8.102 (x-stack-*)', module: sdk102 as unknown as StackSdk },
] as const;

/**
 * The parts of the SDK the interop tests use, typed loosely: the two versions' declaration
 * files differ in details the tests do not touch.
 */
export interface StackSdk {
  StackClientApp: new (options: Record<string, unknown>) => any;
  StackServerApp: new (options: Record<string, unknown>) => any;
}

/**
 * Options for every official SDK app a Node test makes: the SDK starts its page-view tracker (a
 * never-cleared setInterval) whenever `window` and `document` exist, and a component test earlier in
 * the same shared test process leaves happy-dom's globals behind, so the interval would keep that
 * process alive after its last file. Without a DOM the SDK never starts it: turning it off changes
 * nothing else.
 */
export const WITHOUT_PAGE_TRACKER = { analytics: { enabled: false } } as const;

/**
 * A fresh project with real API keys, and a client app and a server app of `sdk` pointed at
 * `server` with in-memory token stores (docs/compatibility.md "Constructing an app") and no page-view tracker.
 */
export async function sdkApps(server: TestServer, sdk: StackSdk, config: Record<string, unknown> = {}) {
  const project = await createProject(server, config);
  const keys = await createProjectKeys(server, project.admin);
  const common = {
    baseUrl: server.url,
    projectId: project.projectId,
    publishableClientKey: keys.publishableClientKey,
    tokenStore: 'memory',
    ...WITHOUT_PAGE_TRACKER,
  };
  return {
    project,
    keys,
    /** A new client app (each has its own memory token store: one signed-in user). */
    clientApp: () => new sdk.StackClientApp(common),
    serverApp: new sdk.StackServerApp({ ...common, secretServerKey: keys.secretServerKey }),
  };
}

/** The error code of a failed SDK `Result`, or of a thrown SDK known error. */
export function errorCodeOf(value: unknown): string | undefined {
  const error = (value as { status?: string; error?: unknown })?.status === 'error' ? (value as { error: unknown }).error : value;
  return (error as { errorCode?: string } | null)?.errorCode;
}
