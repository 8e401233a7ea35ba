import Bowser from 'bowser';

/** Browser and operating system of a session, as its row in account settings names them. */
export interface Device {
  /** e.g. `Chrome 140`, `Firefox 133`, `Safari 18`; null when the agent names none. */
  browser: string | null;
  /** e.g. `macOS Sonoma`, `Windows 10`, `Android 15`, `Linux`; null when the agent names none. */
  os: string | null;
}

/** `name` followed by `version`'s major part (or a release name such as `Sonoma`), when known. */
function named(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  const major = version?.split('.')[0];
  return major ? `${name} ${major}` : name;
}

/**
 * Reads browser and OS out of a stored `User-Agent` with bowser (its browser and OS lists cover the
 * agents people use; an unknown agent gives nulls, never an error).
 */
export function describeDevice(userAgent: string | null): Device {
  if (!userAgent) return { browser: null, os: null };
  try {
    const parsed = Bowser.parse(userAgent);
    const os = parsed.os.versionName ? `${parsed.os.name} ${parsed.os.versionName}` : named(parsed.os.name, parsed.os.version);
    return { browser: named(parsed.browser.name, parsed.browser.version), os };
  } catch {
    return { browser: null, os: null };
  }
}
