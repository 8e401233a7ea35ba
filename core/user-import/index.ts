/** Bulk user import and export: the NDJSON record format, the admin import and export operations, export sealing. */
export { importUsers, IMPORT_LINES_MAX } from './import-users.ts';
export { parseFirebaseHashConfig, firebaseAccountToRecord, type FirebaseHashConfig } from './firebase.ts';
export { exportUsers } from './export-users.ts';
export { exportUsersSealed } from './export-users-sealed.ts';
export { deriveExportKey, openExportSecrets, EXPORT_PASSPHRASE_MIN_LENGTH } from './export-secrets.ts';
export { EXPORT_FORMAT, type ExportHeader } from './export-stream.ts';
