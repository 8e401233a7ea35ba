/** Bulk user import (issue 30): the NDJSON record format and the admin import operation. */
export { importUsers, IMPORT_LINES_MAX } from './import-users.ts';
export { importBatch, type ImportOptions, type LineResult } from './import-batch.ts';
export { parseImportLine, importUserId, ImportedUserSchema, ImportedTeamSchema, type ImportRecord, type ImportErrorCode } from './record.ts';
export { parseFirebaseHashConfig, firebaseAccountToRecord, type FirebaseHashConfig } from './firebase.ts';
