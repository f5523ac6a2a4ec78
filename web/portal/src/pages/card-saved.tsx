import { Link } from 'wouter';
import { Page } from '../ui/page';
import { Notice } from '../ui/status';

/**
 * Where the payment processor's card page sends a person who is not signed in here, after saving a
 * card through a link a program asked for without a reachable success_url
 * (resolvers/orders/card-return-url.ts). A signed-in person goes straight on to Billing, which
 * names what the card paid (app.tsx).
 */
export function CardSavedPage() {
  return (
    <Page title="Card saved">
      <div className="card narrow">
        <Notice tone="ok">Your card is saved with the payment processor. It is the card charged for orders and renewals from now on.</Notice>
        <p>
          If the account had an invoice due, saving the card paid it. <Link href="/billing?card=saved">Sign in to see your billing</Link>: the card on file and
          what it paid.
        </p>
        <p className="aside">You can also close this tab and go back to where you started.</p>
      </div>
    </Page>
  );
}
