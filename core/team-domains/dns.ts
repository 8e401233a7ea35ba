import { Resolver } from 'node:dns/promises';
import type { Runtime } from '../runtime.ts';

/** Longest wait for one TXT lookup, in ms (per try; node's resolver tries twice). */
const LOOKUP_TIMEOUT_MS = 3000;
/** TXT records of one name read at most (a hostile zone may publish many). */
const MAX_RECORDS = 50;

/** What a TXT lookup found: the records (each joined from its strings), or why there are none. */
export type TxtLookup = { records: string[] } | { records: []; reason: 'no_record' | 'lookup_failed' };

/**
 * The TXT records of `name` (RFC 1035 §3.3.14; a record's character-strings are joined, RFC 7208
 * §3.3), asked of the operator's DNS servers (`runtime.dnsServers`, GATEHOUSE_DNS_SERVERS) or the
 * system's. Never throws: NXDOMAIN / NODATA answer `no_record`, any other failure (timeout,
 * refused, server failure) `lookup_failed`.
 */
export async function lookupTxt(runtime: Runtime, name: string): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (runtime.dnsServers.length > 0) resolver.setServers([...runtime.dnsServers]);
  try {
    const records = await resolver.resolveTxt(name);
    return { records: records.slice(0, MAX_RECORDS).map((parts) => parts.join('')) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { records: [], reason: 'no_record' };
    return { records: [], reason: 'lookup_failed' };
  }
}
