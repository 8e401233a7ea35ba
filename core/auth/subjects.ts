import type { ProjectConfig } from '../config/project-config.ts';

/**
 * What the kernel itself reads of the project a request is for: its id, its owner team (the
 * admin access-token check) and its config (`requirePublishableClientKey`).
 */
export interface KernelProject {
  readonly id: string;
  readonly ownerTeamId: string | null;
  readonly config: ProjectConfig;
}

/** What the kernel itself reads of a request's signed-in user: its id. */
export interface KernelUser {
  readonly id: string;
}

/**
 * The domain types of a request's project and user, registered by the composition root
 * (core/wiring.ts) through declaration merging:
 *
 * ```ts
 * declare module './auth/subjects.ts' { interface AuthSubjectTypes { project: Project; user: UserRow } }
 * ```
 *
 * so `RequestAuth` (and every operation's `ctx.auth`) carries the projects and users domains'
 * own types while the kernel imports neither domain. Without a registration the kernel shapes apply.
 */
export interface AuthSubjectTypes {}

/** The project of a request: the projects domain's type (registered), at least a KernelProject. */
export type Project = AuthSubjectTypes extends { project: infer P extends KernelProject } ? P : KernelProject;

/** The signed-in user of a request: the users domain's type (registered), at least a KernelUser. */
export type User = AuthSubjectTypes extends { user: infer U extends KernelUser } ? U : KernelUser;
