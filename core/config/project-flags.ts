import * as v from 'valibot';
import { CONFIG_SCHEMA, type ConfigNode } from './schema.ts';

/**
 * The on/off settings of the project `config` object (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/
 * projects), as data: each names its legacy field, its wire name and the leaf of the config model
 * (schema.ts, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts) that stores it. The admin and
 * client output schemas, the wire forms, the update schema, the mapping to and from the config
 * model and the defaults are all derived from this table; each flag's doc line is its leaf's.
 *
 * `shown`: `client` (in the client and the admin project object), `admin` (admin object only),
 * `write` (accepted on create and update, shown in neither, as upstream).
 * `newProject`: the value a new project starts with when it differs from the model's default
 * (upstream apps/backend/prisma/seed.ts "New-project defaults").
 *
 * The order is the order of the members in the admin object (and, without `allow_localhost`,
 * in the client object), so the wire JSON keeps its key order.
 */
export const PROJECT_FLAGS = [
  { key: 'allowLocalhost', wire: 'allow_localhost', path: 'domains.allowLocalhost', shown: 'client', newProject: true },
  { key: 'signUpEnabled', wire: 'sign_up_enabled', path: 'auth.allowSignUp', shown: 'client' },
  { key: 'credentialEnabled', wire: 'credential_enabled', path: 'auth.password.allowSignIn', shown: 'client', newProject: true },
  { key: 'magicLinkEnabled', wire: 'magic_link_enabled', path: 'auth.otp.allowSignIn', shown: 'client' },
  { key: 'passkeyEnabled', wire: 'passkey_enabled', path: 'auth.passkey.allowSignIn', shown: 'client' },
  { key: 'clientTeamCreationEnabled', wire: 'client_team_creation_enabled', path: 'teams.allowClientTeamCreation', shown: 'client' },
  { key: 'clientUserDeletionEnabled', wire: 'client_user_deletion_enabled', path: 'users.allowClientUserDeletion', shown: 'client' },
  { key: 'allowUserApiKeys', wire: 'allow_user_api_keys', path: 'apiKeys.enabled.user', shown: 'client' },
  { key: 'allowTeamApiKeys', wire: 'allow_team_api_keys', path: 'apiKeys.enabled.team', shown: 'client' },
  { key: 'createTeamOnSignUp', wire: 'create_team_on_sign_up', path: 'teams.createPersonalTeamOnSignUp', shown: 'admin' },
  {
    key: 'requirePublishableClientKey',
    wire: 'require_publishable_client_key',
    path: 'project.requirePublishableClientKey',
    shown: 'write',
  },
  { key: 'requireEmailVerification', wire: 'require_email_verification', path: 'onboarding.requireEmailVerification', shown: 'write' },
] as const satisfies readonly { key: string; wire: string; path: string; shown: 'client' | 'admin' | 'write'; newProject?: boolean }[];

export type ProjectFlag = (typeof PROJECT_FLAGS)[number];
/** The legacy (camelCase) names of the flags: boolean fields of `ProjectConfig`. */
export type ProjectFlagKey = ProjectFlag['key'];
export type ProjectFlags = Record<ProjectFlagKey, boolean>;

/** The leaf of the config model at a dotted path (throws at load time when the table names a missing leaf). */
function leafAt(path: string): Extract<ConfigNode, { kind: 'leaf' }> {
  let node: ConfigNode | undefined = CONFIG_SCHEMA;
  for (const seg of path.split('.')) node = node?.kind === 'object' ? node.fields[seg] : undefined;
  if (node?.kind !== 'leaf') throw new Error(`project flag ${path} is not a leaf of the config schema`);
  return node;
}

/** A flag's doc line (its config-model leaf's). */
export function flagDoc(flag: ProjectFlag): string {
  return leafAt(flag.path).doc;
}

/** A flag's value in a new project: `newProject`, else the config model's default. */
export function flagNewProjectValue(flag: ProjectFlag): boolean {
  return 'newProject' in flag ? flag.newProject : (leafAt(flag.path).default as boolean);
}

/** The flags of a new project. */
export function defaultProjectFlags(): ProjectFlags {
  return Object.fromEntries(PROJECT_FLAGS.map((f) => [f.key, flagNewProjectValue(f)])) as ProjectFlags;
}

type ClientFlag = Exclude<Extract<ProjectFlag, { shown: 'client' }>, { key: 'allowLocalhost' }>;
type AdminFlag = Extract<ProjectFlag, { shown: 'client' | 'admin' }>;

/** Flags shown to clients, in the client object's order (`allow_localhost` is placed by the caller, after the providers). */
export const CLIENT_FLAGS: readonly ClientFlag[] = PROJECT_FLAGS.filter(
  (f): f is ClientFlag => f.shown === 'client' && f.key !== 'allowLocalhost',
);
/** Flags of the admin object, in its order: `allow_localhost`, the client flags, then the admin-only ones. */
export const ADMIN_FLAGS: readonly AdminFlag[] = [
  ...PROJECT_FLAGS.filter((f): f is Extract<AdminFlag, { key: 'allowLocalhost' }> => f.key === 'allowLocalhost'),
  ...CLIENT_FLAGS,
  ...PROJECT_FLAGS.filter((f): f is Extract<AdminFlag, { shown: 'admin' }> => f.shown === 'admin'),
];

type BooleanOutput = v.SchemaWithPipe<readonly [v.BooleanSchema<undefined>, v.DescriptionAction<boolean, string>]>;
type OptionalBoolean = v.OptionalSchema<v.BooleanSchema<undefined>, undefined>;

/** Output schema entries `{<wire>: boolean}` of `flags`, each described by its doc line. */
export function flagOutputEntries<F extends ProjectFlag>(flags: readonly F[]): { [K in F as K['wire']]: BooleanOutput } {
  return Object.fromEntries(flags.map((f) => [f.wire, v.pipe(v.boolean(), v.description(flagDoc(f)))])) as {
    [K in F as K['wire']]: BooleanOutput;
  };
}

/** Update schema entries `{<wire>?: boolean}` of `flags`. */
export function flagUpdateEntries<F extends ProjectFlag>(flags: readonly F[]): { [K in F as K['wire']]: OptionalBoolean } {
  return Object.fromEntries(flags.map((f) => [f.wire, v.optional(v.boolean())])) as { [K in F as K['wire']]: OptionalBoolean };
}

/** The wire members `{<wire>: value}` of `flags` for a config. */
export function flagsToWire<F extends ProjectFlag>(flags: readonly F[], config: ProjectFlags): { [K in F as K['wire']]: boolean } {
  const out: Record<string, boolean> = {};
  for (const f of flags) out[f.wire] = config[f.key];
  return out as { [K in F as K['wire']]: boolean };
}
