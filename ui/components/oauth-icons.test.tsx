import assert from 'node:assert/strict';
import { it } from 'node:test';
import { render } from '../test-dom.tsx';
import { ProviderIcon } from './oauth-icons.tsx';
import { PROVIDER_MARKS } from './provider-marks.ts';

it("draws the provider's own mark (bundled from simple-icons), and a badge for providers without one", async () => {
  const { container, unmount } = await render(
    <div>
      <ProviderIcon id="github" />
      <ProviderIcon id="google" />
      <ProviderIcon id="microsoft" />
      <ProviderIcon id="my-oidc" />
    </div>,
  );
  const path = (id: string) => container.querySelector(`svg[data-icon="${id}"] path`)!;
  assert.equal(path('github').getAttribute('d'), PROVIDER_MARKS.github!.path);
  assert.equal(path('github').getAttribute('fill'), 'currentColor', 'a near-black mark follows the text colour (dark mode)');
  assert.equal(path('google').getAttribute('fill'), '#4285F4');
  assert.ok(container.querySelector('svg[data-icon="microsoft"] rect'), 'no mark: the brand-coloured badge');
  assert.ok(container.querySelector('svg[data-icon="my-oidc"] rect'));
  assert.equal(container.querySelectorAll('svg[aria-hidden="true"]').length, 4, 'decorative: the button text names the provider');
  await unmount();
});
