/**
 * Provider marks for the OAuth buttons: a local SVG per provider (no image is fetched from
 * anywhere), a rounded square in the provider's brand colour with its initial. Decorative: the
 * button's text names the provider.
 */
const PROVIDERS: Record<string, { name: string; color: string; letter: string }> = {
  google: { name: 'Google', color: '#4285f4', letter: 'G' },
  github: { name: 'GitHub', color: '#24292f', letter: 'G' },
  microsoft: { name: 'Microsoft', color: '#2f2f2f', letter: 'M' },
  spotify: { name: 'Spotify', color: '#1db954', letter: 'S' },
  facebook: { name: 'Facebook', color: '#1877f2', letter: 'f' },
  discord: { name: 'Discord', color: '#5865f2', letter: 'D' },
  gitlab: { name: 'GitLab', color: '#e24329', letter: 'G' },
  bitbucket: { name: 'Bitbucket', color: '#0052cc', letter: 'B' },
  linkedin: { name: 'LinkedIn', color: '#0a66c2', letter: 'in' },
  apple: { name: 'Apple', color: '#000000', letter: '' },
  x: { name: 'X', color: '#000000', letter: 'X' },
  twitch: { name: 'Twitch', color: '#9146ff', letter: 'T' },
};

/** The display name of a provider id (`github` → `GitHub`); unknown ids as given. */
export function providerName(id: string): string {
  return PROVIDERS[id]?.name ?? id;
}

/** The provider's mark (decorative, `aria-hidden`). */
export function ProviderIcon(props: { id: string }) {
  const p = PROVIDERS[props.id] ?? { color: '#5b6472', letter: props.id.slice(0, 1).toUpperCase() };
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <rect width="20" height="20" rx="5" fill={p.color} />
      {props.id === 'apple'
        ? <path d="M12.6 4.2c-.6.7-1.5 1.2-2.3 1.1-.1-.9.3-1.8.9-2.4.6-.6 1.5-1.1 2.3-1.1.1.9-.3 1.8-.9 2.4zm.9 1.4c-1.2-.1-2.3.7-2.9.7-.6 0-1.5-.7-2.5-.6-1.3 0-2.5.7-3.1 1.9-1.3 2.3-.3 5.7 1 7.6.6.9 1.4 1.9 2.3 1.9.9 0 1.3-.6 2.4-.6s1.4.6 2.4.6c1 0 1.6-.9 2.2-1.8.7-1 1-2 1-2.1 0 0-1.9-.7-1.9-2.9 0-1.8 1.5-2.7 1.6-2.8-.9-1.3-2.2-1.4-2.5-1.5z" fill="#fff" />
        : <text x="10" y="14.5" textAnchor="middle" fontSize={p.letter.length > 1 ? 9 : 12} fontWeight="700" fontFamily="system-ui,sans-serif" fill="#fff">{p.letter}</text>}
    </svg>
  );
}
