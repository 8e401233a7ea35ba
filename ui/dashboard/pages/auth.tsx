import { useEffect, useState } from 'react';
import { GatehouseProvider } from '../../../sdk/react.tsx';
import { Root } from '../../common.tsx';
import { CredentialSignIn, CredentialSignUp } from '../../components/sign-in.tsx';
import { useApi } from '../kit.tsx';

/**
 * Signed-out page, built from the project's own components (ui/components/sign-in.tsx): on a
 * fresh server the first owner's sign-up; afterwards sign-in (and sign-up only while the server
 * keeps it open, GATEHOUSE_DASHBOARD_SIGNUP=open). `onSignedIn` runs once the internal session
 * has tokens.
 */
export function AuthPage(props: { onSignedIn: () => void }) {
  const api = useApi();
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>(api.boot.firstRun ? 'sign-up' : 'sign-in');
  const signUp = mode === 'sign-up';
  useEffect(() => {
    const check = () => {
      if (api.signedIn) props.onSignedIn();
    };
    const unsubscribe = api.app.onSessionChange(check);
    const poll = setInterval(check, 250);
    return () => {
      unsubscribe();
      clearInterval(poll);
    };
  }, [api, props.onSignedIn]);
  return (
    <GatehouseProvider app={api.app}>
      <Root>
        <div className="d-auth d-card">
          <h1>{api.boot.firstRun && signUp ? 'Welcome to Gatehouse' : signUp ? 'Create a dashboard account' : 'Sign in to Gatehouse'}</h1>
          {api.boot.firstRun && signUp && (
            <p className="d-muted">
              Create the owner account of this server.
              {api.boot.signUpStaysOpen
                ? ' Sign-up to the dashboard stays open on this server (GATEHOUSE_DASHBOARD_SIGNUP=open).'
                : ' After this, sign-up to the dashboard closes; invite other owners through your team.'}
            </p>
          )}
          {signUp ? <CredentialSignUp /> : <CredentialSignIn />}
          {!api.boot.firstRun &&
            (signUp ? (
              <p>
                <button type="button" className="d-link" onClick={() => setMode('sign-in')}>
                  I already have an account
                </button>
              </p>
            ) : (
              <p>
                {api.boot.signUpOpen ? (
                  <button type="button" className="d-link" onClick={() => setMode('sign-up')}>
                    Create an account
                  </button>
                ) : (
                  <>
                    Invited by an owner?{' '}
                    <button type="button" className="d-link" onClick={() => setMode('sign-up')}>
                      Create your account
                    </button>{' '}
                    with the invited email.
                  </>
                )}
              </p>
            ))}
        </div>
      </Root>
    </GatehouseProvider>
  );
}
