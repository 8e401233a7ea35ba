import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { secureRandomString } from '../lib/random.ts';
import type { Database } from '../storage/tables.ts';
import { parseProduct, type CustomerType, type ProductConfig } from './model.ts';
import { findPurchaseCode, insertPurchaseCode } from './queries.ts';

/** How long a purchase URL stays valid: 24 hours, as upstream. */
export const PURCHASE_CODE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Creates a purchase code holding everything the purchase page needs (customer, product
 * snapshot with its prices from config): `{projectId}_{random}` as upstream's full codes, the
 * random part stored only as its SHA-256.
 */
export async function createPurchaseCode(
  db: Kysely<Database>,
  args: {
    projectId: string;
    branchId: string;
    customerType: CustomerType;
    customerId: string;
    productId: string | null;
    product: Record<string, unknown>;
    returnUrl: string | null;
    now: number;
  },
): Promise<string> {
  const code = secureRandomString(160).toLowerCase();
  await insertPurchaseCode(db, {
    code_hash: sha256Hex(code),
    project_id: args.projectId,
    branch_id: args.branchId,
    customer_type: args.customerType,
    customer_id: args.customerId,
    product_id: args.productId,
    product: JSON.stringify(args.product),
    return_url: args.returnUrl,
    created_at: args.now,
    expires_at: args.now + PURCHASE_CODE_TTL_MS,
    used_at: null,
  });
  return `${args.projectId}_${code}`;
}

export interface OpenPurchaseCode {
  codeHash: string;
  projectId: string;
  branchId: string;
  customerType: CustomerType;
  customerId: string;
  productId: string | null;
  product: ProductConfig;
  returnUrl: string | null;
}

/**
 * The purchase behind a full code.
 *
 * @throws VERIFICATION_CODE_NOT_FOUND (malformed or unknown), VERIFICATION_CODE_EXPIRED,
 * VERIFICATION_CODE_ALREADY_USED (the purchase was completed).
 */
export async function openPurchaseCode(db: Kysely<Database>, fullCode: string, now: number): Promise<OpenPurchaseCode> {
  const sep = fullCode.indexOf('_');
  const code = sep < 0 ? '' : fullCode.slice(sep + 1);
  const row = code ? await findPurchaseCode(db, sha256Hex(code)) : null;
  if (!row || row.project_id !== fullCode.slice(0, sep)) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  if (Number(row.expires_at) <= now) throw new KnownError('VERIFICATION_CODE_EXPIRED');
  if (row.used_at !== null) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
  return {
    codeHash: row.code_hash,
    projectId: row.project_id,
    branchId: row.branch_id,
    customerType: row.customer_type as CustomerType,
    customerId: row.customer_id,
    productId: row.product_id,
    product: parseProduct(row.product_id ?? 'inline', JSON.parse(row.product)),
    returnUrl: row.return_url,
  };
}
