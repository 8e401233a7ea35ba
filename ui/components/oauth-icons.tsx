import { PROVIDER_MARKS } from './provider-marks.ts';

/**
 * Local provider icons (no remote images, so the hosted pages' CSP stays closed): the provider's
 * own mark (ui/components/provider-marks.ts, from simple-icons), else an account badge in its
 * brand colour. Decorative: the button text names the provider.
 */
const BRANDS: Record<string, { color: string }> = {
  google: { color: '#4285F4' },
  github: { color: '#24292F' },
  microsoft: { color: '#00A4EF' },
  facebook: { color: '#1877F2' },
  discord: { color: '#5865F2' },
  gitlab: { color: '#E24329' },
  bitbucket: { color: '#0052CC' },
  linkedin: { color: '#0A66C2' },
  apple: { color: '#000000' },
  x: { color: '#000000' },
  spotify: { color: '#1DB954' },
  twitch: { color: '#9146FF' },
};

/** Provider names for built-in ids (generic OpenID providers carry their own `display_name`). */
export const PROVIDER_NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  spotify: 'Spotify',
  facebook: 'Facebook',
  discord: 'Discord',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  linkedin: 'LinkedIn',
  apple: 'Apple',
  x: 'X',
  twitch: 'Twitch',
};

/** The display name of a provider id. */
export function providerName(id: string, displayName?: string | null): string {
  return displayName ?? PROVIDER_NAMES[id] ?? id;
}

/** Near-black marks (GitHub, Apple, X) follow the text colour, so they show in dark mode too. */
function markFill(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const luminance = (0.2126 * (n >> 16) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
  return luminance < 0.15 ? 'currentColor' : hex;
}

/**
 * The provider's mark at 20×20, or a badge in the provider's brand colour (a neutral grey for
 * generic OpenID providers). Drawn without text nodes so the button's text is exactly its label.
 */
export function ProviderIcon(props: { id: string; name?: string }) {
  const mark = PROVIDER_MARKS[props.id];
  if (mark) {
    return (
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ flex: 'none' }} data-icon={props.id}>
        <path d={mark.path} fill={markFill(mark.hex)} />
      </svg>
    );
  }
  const color = BRANDS[props.id]?.color ?? '#4B5563';
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false" style={{ flex: 'none' }} data-icon={props.id}>
      <rect width="20" height="20" rx="4" fill={color} />
      <circle cx="10" cy="8" r="3.2" fill="none" stroke="#fff" strokeWidth="1.8" />
      <path d="M4.5 16.5c.9-2.9 3-4.3 5.5-4.3s4.6 1.4 5.5 4.3" fill="none" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}
