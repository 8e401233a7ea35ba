import assert from 'node:assert/strict';
import { it } from 'node:test';
import { en } from './en.ts';
import { de } from './de.ts';
import { resolveLocale, translator } from './index.tsx';
import './catalogues.ts';
import { hostedLocale } from '../hosted/config.ts';
import { accentCss, accentProblem, contrastRatio } from '../brand-colors.ts';

it('gives German every English message with the same placeholders', () => {
  const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    assert.deepEqual(placeholders(de[key]), placeholders(en[key]), key);
    assert.ok(de[key].trim(), `${key} is empty in German`);
  }
});

it('resolves BCP 47 tags and fills placeholders', () => {
  assert.equal(resolveLocale('de-AT'), 'de');
  assert.equal(resolveLocale(['fr-FR', 'de']), 'de');
  assert.equal(resolveLocale(['fr-FR']), 'en');
  assert.equal(resolveLocale(null), 'en');
  assert.equal(translator('de')('invitation.join', { team: 'Rakete' }), 'Rakete beitreten');
  assert.equal(translator('en', { 'signIn.title': 'Welcome back' })('signIn.title'), 'Welcome back');
});

it('picks the hosted pages language: the address, then this visit, then the browser', () => {
  assert.equal(hostedLocale('?lang=de', 'en', ['en-US']), 'de');
  assert.equal(hostedLocale('?locale=de-CH', null, ['en-US']), 'de');
  assert.equal(hostedLocale('', 'de', ['en-US']), 'de');
  assert.equal(hostedLocale('', null, ['de-DE', 'en']), 'de');
  assert.equal(hostedLocale('?lang=xx', 'de', ['de']), 'en', 'an unknown language asked for falls back to English');
});

it('accepts an accent colour only at 4.5:1 against the page, and picks readable text on it', () => {
  assert.equal(Math.round(contrastRatio('#000000', '#ffffff')), 21);
  assert.equal(accentProblem('#1d4ed8', 'light'), null);
  assert.match(accentProblem('#ffff00', 'light') ?? '', /4\.5:1/);
  assert.match(accentProblem('#1d4ed8', 'dark') ?? '', /4\.5:1/);
  assert.match(accentProblem('blue', 'light') ?? '', /#rrggbb/);
  assert.match(accentCss('#1d4ed8', null), /--gh-accent:#1d4ed8;--gh-accent-fg:#ffffff/);
  assert.match(accentCss(null, '#93b4ff'), /prefers-color-scheme:dark.*--gh-accent-fg:#0b0d12/);
  assert.equal(accentCss('not a colour', null), '');
});

it('localizes the password rules the server names in `reason` (common password, the email itself)', async () => {
  const { errorText } = await import('../common.tsx');
  const { GatehouseKnownError } = await import('../../sdk/errors.ts');
  const common = new GatehouseKnownError(
    'PASSWORD_REQUIREMENTS_NOT_MET',
    { message: 'This password is too common. Please choose a less predictable one.', reason: 'common_password' },
    undefined,
    400,
  );
  assert.equal(errorText(common, translator('en')), en['error.passwordCommon']);
  assert.equal(errorText(common, translator('de')), 'Dieses Passwort ist zu verbreitet. Bitte wählen Sie ein weniger vorhersehbares.');
  const email = new GatehouseKnownError('PASSWORD_REQUIREMENTS_NOT_MET', { reason: 'matches_email' }, undefined, 400);
  assert.equal(errorText(email, translator('de')), de['error.passwordMatchesEmail']);
  const predictable = new GatehouseKnownError('PASSWORD_REQUIREMENTS_NOT_MET', { reason: 'predictable_password' }, undefined, 400);
  assert.equal(errorText(predictable, translator('de')), de['error.passwordPredictable']);
  assert.equal(
    errorText(new GatehouseKnownError('PASSWORD_REQUIREMENTS_NOT_MET', {}, undefined, 400), translator('de')),
    de['error.passwordRequirements'],
  );
});

it('registers a catalogue loaded on demand (the hosted pages: English only until loaded)', async () => {
  const { loadCatalogue } = await import('./load.ts');
  assert.equal(loadCatalogue('en'), null, 'English is always there');
  assert.equal(loadCatalogue('de'), null, 'German is registered by ./catalogues.ts here');
});
