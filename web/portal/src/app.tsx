import { Redirect, Route, Router, Switch } from 'wouter';
import { Session } from './session';
import { Layout } from './layout';
import { routes } from './routes';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';
import { ResetPasswordPage } from './pages/reset-password';
import { AcceptInvitationPage } from './pages/accept-invitation';
import { ConfirmSignUpPage } from './pages/confirm-sign-up';
import { Page } from './ui/page';
import { SignedInLinkPage } from './pages/signed-in-link';
import { DomainSetupPage } from './pages/domain-setup';
import { MailboxesPage } from './pages/mailboxes';

/** The portal: signed-in pages inside the frame, the sign-in pages for everyone else. */
export function App() {
  return (
    <Router base="/portal">
      <Session
        signedIn={
          <Layout>
            <Switch>
              {routes.map((route) => (
                <Route key={route.path} path={route.path} component={route.component} />
              ))}
              <Route path="/domains/:domain/setup" component={DomainSetupPage} />
              <Route path="/domains/:domain/mailboxes" component={MailboxesPage} />
              <Route path="/reset-password">
                <SignedInLinkPage what="a password reset" />
              </Route>
              <Route path="/accept-invitation">
                <SignedInLinkPage what="an invitation" />
              </Route>
              <Route path="/sign-up">
                <Redirect to="/" />
              </Route>
              <Route path="/confirm-sign-up">
                <SignedInLinkPage what="a sign-up confirmation" />
              </Route>
              <Route>
                <Page title="Page not found">
                  <p>There is no such page in the portal; pick one from the navigation.</p>
                </Page>
              </Route>
            </Switch>
          </Layout>
        }
        signedOut={(refresh) => (
          <main id="main" className="signed-out">
            <Switch>
              <Route path="/sign-up">
                <SignUpPage />
              </Route>
              <Route path="/confirm-sign-up">
                <ConfirmSignUpPage onSignedIn={refresh} />
              </Route>
              <Route path="/reset-password">
                <ResetPasswordPage />
              </Route>
              <Route path="/accept-invitation">
                <AcceptInvitationPage onSignedIn={refresh} />
              </Route>
              <Route>
                <SignInPage onSignedIn={refresh} />
              </Route>
            </Switch>
          </main>
        )}
      />
    </Router>
  );
}
