import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import * as samlify from 'samlify';
import { generateServiceProviderKeys } from '../../core/sso/connection.ts';

// The IdP checks every AuthnRequest against the SAML schemas with xmllint compiled to asm.js
// (4 MB). V8 translates asm.js to WebAssembly before the first call: 3.2 s of CPU in every test
// process that loads this helper, against 0.4 s to run it as plain JavaScript, which then takes
// about 45 ms more per validation (measured: the six SAML test files validate 36 requests on both
// databases). The flag is set before the module loads; no other code of the tests is asm.js.
setFlagsFromString('--no-validate-asm');
const xmllint = await import('@authenio/samlify-node-xmllint');
samlify.setSchemaValidator(xmllint);
// Loads the validator up front (the first validation blocks the event loop while it loads).
await xmllint.validate('<x/>').catch(() => {});

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What a test may change in the next response (to forge, misdirect or age it). */
export interface ResponseTweaks {
  audience?: string;
  /** Minutes from now for NotOnOrAfter (negative: already expired). */
  validForMinutes?: number;
  /** Drop InResponseTo (an unsolicited, IdP-initiated response). */
  unsolicited?: boolean;
  recipient?: string;
  /** Sign with another key than the one in the IdP's metadata. */
  forgeSignature?: boolean;
  /** Encrypt the assertion to the SP's certificate. */
  encrypt?: boolean;
  /** More attributes, each with its values (e.g. `{groups: ['admins']}`). */
  attributes?: Record<string, string[]>;
}

/** A real SAML IdP (samlify in IdP mode) on a loopback port; users are `<login>@corp.example` named `Corp <login>`. */
export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  metadataXml: string;
  certificate: string;
  /** Serves the IdP's metadata (for idp_metadata_url). */
  metadataUrl: string;
  /**
   * Answers an AuthnRequest (the redirect URL Gatehouse sent the browser to) for `login`, as the
   * auto-post form would: the ACS URL and the SAMLResponse.
   */
  respond(authnRequestUrl: string, login: string, tweaks?: ResponseTweaks): Promise<{ acsUrl: string; samlResponse: string }>;
  /** A response to no request at all, for the SP of `spMetadataXml`. */
  unsolicited(spMetadataXml: string, login: string, tweaks?: ResponseTweaks): Promise<{ acsUrl: string; samlResponse: string }>;
  /** Who a browser arriving at the SSO URL is signed in as (the page auto-posts that user's response). */
  signInBrowserAs(login: string): void;
  /** Certificate rollover: signs with a new key from now on, and the served metadata lists only the new certificate. */
  rollOver(): Promise<void>;
  close(): Promise<void>;
}

function identityProvider(entityId: string, ssoUrl: string, keys: { certificate: string; privateKey: string }, encrypt: boolean) {
  return samlify.IdentityProvider({
    entityID: entityId,
    signingCert: keys.certificate,
    privateKey: keys.privateKey,
    singleSignOnService: [{ Binding: REDIRECT, Location: ssoUrl }],
    singleLogoutService: [{ Binding: REDIRECT, Location: `${ssoUrl}/logout` }],
    wantAuthnRequestsSigned: true,
    isAssertionEncrypted: encrypt,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
  });
}

/** Starts the IdP. */
export async function startSamlIdp(): Promise<TestSamlIdp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const entityId = `${base}/metadata`;
  const ssoUrl = `${base}/sso`;
  let keys = await generateServiceProviderKeys('Test IdP');
  const forged = await generateServiceProviderKeys('Forger');
  const idp = identityProvider(entityId, ssoUrl, keys, false);
  const metadataXml = idp.getMetadata();
  let servedMetadata = metadataXml;
  let browserLogin = 'browser';
  server.on('request', (req, res) => {
    if (req.url === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(servedMetadata);
      return;
    }
    if (req.url?.startsWith('/sso?')) {
      // What a browser sees at a real IdP after signing in: a page that auto-posts the response to the ACS.
      api
        .respond(`${base}${req.url}`, browserLogin)
        .then(({ acsUrl, samlResponse }) => {
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              `<!doctype html><form method="post" action="${acsUrl}"><input type="hidden" name="SAMLResponse" value="${samlResponse}"></form>` +
                '<script>document.forms[0].submit()</script>',
            );
        })
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
      return;
    }
    res.writeHead(404).end();
  });

  async function build(spMetadataXml: string, requestId: string | null, login: string, tweaks: ResponseTweaks) {
    const signer = identityProvider(
      entityId,
      ssoUrl,
      tweaks.forgeSignature ? { ...forged, certificate: keys.certificate } : keys,
      !!tweaks.encrypt,
    );
    const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
    const acsUrl = sp.entityMeta.getAssertionConsumerService('post') as string;
    const spEntityId = sp.entityMeta.getEntityID();
    const now = new Date();
    const until = new Date(now.getTime() + (tweaks.validForMinutes ?? 5) * 60_000).toISOString();
    const notBefore = tweaks.validForMinutes !== undefined && tweaks.validForMinutes < 0 ? new Date(now.getTime() - 3_600_000) : now;
    const email = `${login}@corp.example`;
    const attributes =
      '<saml:AttributeStatement>' +
      `<saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>` +
      `<saml:Attribute Name="displayName"><saml:AttributeValue>Corp ${login}</saml:AttributeValue></saml:Attribute>` +
      Object.entries(tweaks.attributes ?? {})
        .map(
          ([name, values]) =>
            `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
        )
        .join('') +
      '</saml:AttributeStatement>';
    const values = {
      ID: `_${randomBytes(16).toString('hex')}`,
      AssertionID: `_${randomBytes(16).toString('hex')}`,
      Destination: acsUrl,
      Audience: tweaks.audience ?? spEntityId,
      EntityID: spEntityId,
      SubjectRecipient: tweaks.recipient ?? acsUrl,
      Issuer: entityId,
      IssueInstant: notBefore.toISOString(),
      AssertionConsumerServiceURL: acsUrl,
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: notBefore.toISOString(),
      ConditionsNotOnOrAfter: until,
      SubjectConfirmationDataNotOnOrAfter: until,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: email,
      InResponseTo: requestId ?? '',
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributes,
    };
    const result = await signer.createLoginResponse(sp, { extract: { request: { id: requestId ?? '' } } }, 'post', { email }, {
      customTagReplacement: (template: string) => {
        let xml = template.replace(/\{(\w+)\}/g, (whole, tag: string) =>
          tag in values ? String(values[tag as keyof typeof values]) : whole,
        );
        if (requestId === null) xml = xml.replace(/ InResponseTo=""/g, '');
        return { id: values.ID, context: xml };
      },
    } as any);
    return { acsUrl, samlResponse: result.context };
  }

  const api: TestSamlIdp = {
    entityId,
    ssoUrl,
    metadataXml,
    certificate: keys.certificate,
    metadataUrl: `${base}/metadata`,
    async respond(authnRequestUrl, login, tweaks = {}) {
      const url = new URL(authnRequestUrl);
      const spMetadataUrl = await issuerOf(url);
      const spMetadataXml = await (await fetch(spMetadataUrl)).text();
      const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
      const octetString = url.search
        .slice(1)
        .split('&')
        .filter((part) => !part.startsWith('Signature='))
        .join('&');
      const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString } as any);
      return build(spMetadataXml, String(parsed.extract.request?.id ?? ''), login, tweaks);
    },
    async unsolicited(spMetadataXml, login, tweaks = {}) {
      return build(spMetadataXml, null, login, tweaks);
    },
    signInBrowserAs(login) {
      browserLogin = login;
    },
    async rollOver() {
      keys = await generateServiceProviderKeys('Test IdP (rolled over)');
      servedMetadata = identityProvider(entityId, ssoUrl, keys, false).getMetadata();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

/** The SP entity id (Gatehouse's metadata URL) of a redirect-binding AuthnRequest. */
async function issuerOf(url: URL): Promise<string> {
  const { inflateRawSync } = await import('node:zlib');
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const issuer = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1];
  if (!issuer) throw new Error(`no Issuer in AuthnRequest: ${xml.slice(0, 300)}`);
  return issuer;
}
