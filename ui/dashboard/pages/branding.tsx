import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import { Field, Form, Section, useApi } from '../kit.tsx';
import { accentProblem } from '../../brand-colors.ts';

/** An http(s) URL field's problem (empty means "no link"). */
function urlProblem(url: string): string | null {
  if (!url.trim()) return null;
  return /^https?:\/\/\S+$/.test(url.trim()) ? null : 'Use a full http(s) address, e.g. https://example.com/terms.';
}

/**
 * Branding of the hosted pages and components (project `logo_url` plus the `branding` config, a
 * Gatehouse extension): logo, accent colours for light and dark mode (refused below 4.5:1
 * contrast, so links and buttons stay readable), terms and privacy links.
 */
export function BrandingSection(props: { project: AdminProject & { logo_url?: string | null }; reload: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const b = (props.project.config.branding ?? {}) as {
    accent_color_light?: string | null;
    accent_color_dark?: string | null;
    terms_of_service_url?: string | null;
    privacy_policy_url?: string | null;
  };
  const [logo, setLogo] = useState(props.project.logo_url ?? '');
  const [light, setLight] = useState(b.accent_color_light ?? '');
  const [dark, setDark] = useState(b.accent_color_dark ?? '');
  const [terms, setTerms] = useState(b.terms_of_service_url ?? '');
  const [privacy, setPrivacy] = useState(b.privacy_policy_url ?? '');
  const lightProblem = light.trim() ? accentProblem(light.trim(), 'light') : null;
  const darkProblem = dark.trim() ? accentProblem(dark.trim(), 'dark') : null;
  const logoProblem =
    logo.trim() && !/^(https:\/\/|data:image\/)\S+$/.test(logo.trim()) ? 'Use an https:// address or a data:image URL.' : null;
  const problems = [logoProblem, lightProblem, darkProblem, urlProblem(terms), urlProblem(privacy)].filter(Boolean);
  return (
    <Section
      title="Branding"
      description="How the project's hosted sign-in pages and components look. Leave a field empty for the default."
    >
      <Form
        label="Branding"
        submit="Save branding"
        disabled={problems.length > 0}
        disabledReason="Fix the fields marked above first."
        onDone={props.reload}
        onSubmit={() =>
          admin('projects.updateCurrent', {
            body: {
              logo_url: logo.trim() || null,
              config: {
                branding: {
                  accent_color_light: light.trim() || null,
                  accent_color_dark: dark.trim() || null,
                  terms_of_service_url: terms.trim() || null,
                  privacy_policy_url: privacy.trim() || null,
                },
              },
            },
          })
        }
      >
        <Field
          label="Logo URL"
          name="logo_url"
          value={logo}
          onChange={setLogo}
          placeholder="https://example.com/logo.svg"
          error={logoProblem}
        />
        <Field
          label="Accent colour, light mode"
          name="accent_color_light"
          value={light}
          onChange={setLight}
          placeholder="#2454d6"
          error={lightProblem}
          hint="Buttons, links and focus rings; #rrggbb."
        />
        <Field
          label="Accent colour, dark mode"
          name="accent_color_dark"
          value={dark}
          onChange={setDark}
          placeholder="#7aa2ff"
          error={darkProblem}
        />
        <Field
          label="Terms of service URL"
          name="terms_of_service_url"
          value={terms}
          onChange={setTerms}
          placeholder="https://example.com/terms"
          error={urlProblem(terms)}
        />
        <Field
          label="Privacy policy URL"
          name="privacy_policy_url"
          value={privacy}
          onChange={setPrivacy}
          placeholder="https://example.com/privacy"
          error={urlProblem(privacy)}
        />
      </Form>
    </Section>
  );
}
