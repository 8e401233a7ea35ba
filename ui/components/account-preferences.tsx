import { useId, useState } from 'react';
import type { ActiveSession } from '../../sdk/objects.ts';
import type { User } from '../../sdk/user.ts';
import { FormError, Success, useAction } from '../common.tsx';
import { LOCALES, useT, type Locale, type Translate } from '../i18n/index.tsx';

/** Each language in its own name, as language pickers show them. */
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/**
 * The language of the user's emails (stored server-side, `PATCH /users/me` `locale`, a Gatehouse
 * extension; upstream's user has no such field, so the current choice cannot be read back: the
 * picker starts at the page's language, which sign-up stored).
 */
export function EmailLanguage(props: { user: User }) {
  const t = useT();
  const id = useId();
  const [value, setValue] = useState<Locale>(t.locale);
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div className="gh-field">
      <label htmlFor={id}>{t('settings.language')}</label>
      <select
        id={id}
        className="gh-input"
        value={value}
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const locale = (e.target as HTMLSelectElement).value as Locale;
          setValue(locale);
          setSaved(false);
          void run(async () => {
            await props.user.update({ locale });
            setSaved(true);
          });
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="gh-muted">
        {t('settings.languageHint')}
      </p>
      <FormError error={error} />
      {saved ? <Success>{t('settings.saved')}</Success> : null}
    </div>
  );
}

/**
 * A session's name in the sessions list: browser and OS when its agent named them
 * (`Chrome 140 on macOS Sonoma`), else "This device" / "Other device"; then the place of its last
 * use when the server has a GeoIP database (`near Berlin, DE`), else nothing.
 */
export function sessionLabel(t: Translate, s: ActiveSession): { device: string; place: string | null } {
  const named = s.browser && s.os ? t('sessions.device', { browser: s.browser, os: s.os }) : (s.browser ?? s.os);
  const device = named ?? (s.isCurrentSession ? t('sessions.thisDevice') : t('sessions.otherDevice'));
  const where = s.geoInfo ? [s.geoInfo.cityName, s.geoInfo.countryCode].filter(Boolean).join(', ') : '';
  return { device, place: where ? t('sessions.near', { place: where }) : null };
}

/** A notification category's name in the reader's language (upstream's names are the ids). */
export function categoryName(t: Translate, name: string): string {
  return name === 'Transactional' || name === 'Marketing' ? t(`notifications.${name}`) : name;
}
