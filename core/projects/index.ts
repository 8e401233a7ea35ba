/**
 * What other domains may use of projects: the row, lookups, wire shapes and the project-created
 * listeners. The operations are in ./operations.ts (for the registry), so that importing these
 * helpers never pulls in the operations and their imports (permissions, teams), which would close
 * import cycles.
 */
export { findProject, updateProject, type Project } from './queries.ts';
export { toClientProject } from './wire.ts';
