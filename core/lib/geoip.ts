import { readFileSync } from 'node:fs';
import { Reader, type CityResponse } from 'mmdb-lib';

/**
 * An approximate place of an address, from the operator's GeoIP database. The wire form
 * (`last_used_at_end_user_ip_info`, upstream stack-shared `utils/geo.tsx` `geoInfoSchema`) uses
 * camelCase keys; unknown parts are null.
 */
export interface Place {
  ip: string;
  countryCode: string | null;
  regionCode: string | null;
  cityName: string | null;
  latitude: number | null;
  longitude: number | null;
  tzIdentifier: string | null;
}

/** Finds the place of a normalized client address (core/lib/client-address.ts), or null. */
export type PlaceLookup = (address: string | null) => Place | null;

/** The lookup when no GeoIP database is configured: never a place. */
export const noPlaces: PlaceLookup = () => null;

/** A GeoIP2 / GeoLite2 / DB-IP "City" record (a "Country" record is one without city and location). */
type CityRecord = CityResponse;

/**
 * Opens a MaxMind DB file (`.mmdb`: MaxMind GeoLite2/GeoIP2 City or Country, DB-IP Lite City, or
 * any database with the same record layout) and returns its lookup. The whole file is read once
 * into memory (a City database is about 60 MB); lookups are in-memory tree walks, never a
 * network call. An address of a private or loopback range, an IPv6 address in an IPv4-only
 * database, or one the database does not hold gives null.
 *
 * @param path the file named by GATEHOUSE_GEOIP_DATABASE.
 * @throws Error naming the file when it cannot be read or is not a MaxMind DB.
 */
export function openGeoIpDatabase(path: string): PlaceLookup {
  let reader: Reader<CityRecord>;
  try {
    reader = new Reader<CityRecord>(readFileSync(path));
  } catch (error) {
    throw new Error(`Cannot open the GeoIP database ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (address) => {
    if (!address) return null;
    // IPv6 addresses arrive as their /64 prefix; any address inside it locates the customer.
    const ip = address.replace(/\/64$/, '');
    let record: CityRecord | null;
    try {
      record = reader.get(ip);
    } catch {
      return null;
    }
    if (!record?.country?.iso_code) return null;
    return {
      ip,
      countryCode: record.country.iso_code,
      regionCode: record.subdivisions?.[0]?.iso_code ?? null,
      cityName: record.city?.names?.en ?? null,
      latitude: record.location?.latitude ?? null,
      longitude: record.location?.longitude ?? null,
      tzIdentifier: record.location?.time_zone ?? null,
    };
  };
}
