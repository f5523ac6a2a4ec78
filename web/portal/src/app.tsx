import { Redirect, Route, Router, Switch } from 'wouter';
import { Session } from './session';
import { Layout } from './layout';
import { AcceptInvitationPage, CardSavedPage, ConfirmSignUpPage, DomainSetupPage, MailboxesPage, ResetPasswordPage, routes } from './routes';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';
import { Page } from './ui/page';
import { PageChunk } from './ui/page-chunk';
import { SignedInLinkPage } from './pages/signed-in-link';

/** The portal: signed-in pages inside the frame, the sign-in pages for everyone else. */
export function App() {
  return (
    <Router base="/portal">
      <Session
        signedIn={
          <Layout>
            <PageChunk>
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
                {/* The card page's landing when the caller gave no reachable success_url: Billing confirms it. */}
                <Route path="/card-saved">
                  <Redirect to="/billing?card=saved" replace />
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
            </PageChunk>
          </Layout>
        }
        signedOut={(refresh) => (
          <main id="main" className="signed-out">
            <PageChunk>
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
                <Route path="/card-saved">
                  <CardSavedPage />
                </Route>
                <Route path="/accept-invitation">
                  <AcceptInvitationPage onSignedIn={refresh} />
                </Route>
                <Route>
                  <SignInPage onSignedIn={refresh} />
                </Route>
              </Switch>
            </PageChunk>
          </main>
        )}
      />
    </Router>
  );
}
