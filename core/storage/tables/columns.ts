/** Column types shared by the table types of core/storage/tables/. */

/**
 * A flag: stored as a 0/1 `integer` on both dialects, a boolean above the adapters, which convert
 * both ways by column name (adapters/boolean-columns.ts lists every `Bool` column).
 */
export type Bool = boolean;
