/** Bulk user import: the NDJSON record format and the admin import operation. */
export { importUsers, IMPORT_LINES_MAX } from './import-users.ts';
export { parseFirebaseHashConfig, firebaseAccountToRecord, type FirebaseHashConfig } from './firebase.ts';
