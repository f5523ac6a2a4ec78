import { useId, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ReferralsQuery } from '../gql/graphql';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { formatDate, formatMoney } from '../ui/format';

const ReferralsDocument = graphql(`
  query Referrals {
    referrals {
      code link terms sharePercent payoutDestination currency earnedTotal pendingTotal paidTotal
      earnings { referredAccount amount currency status earnedAt }
    }
  }
`);

type Referrals = ReferralsQuery['referrals'];

/** The account's referral code and link, what it has earned, and the accounts it brought. */
export function ReferralsPage() {
  const [result] = useQuery({ query: ReferralsDocument });
  return (
    <Page title="Referrals">
      <QueryState {...result}>
        {(data) => (
          <>
            <ReferralLink referrals={data.referrals} />
            <ReferralTerms referrals={data.referrals} />
            <div className="stats">
              <div className="stat">
                <strong>{formatMoney(data.referrals.earnedTotal, data.referrals.currency)}</strong>earned in all
              </div>
              <div className="stat">
                <strong>{formatMoney(data.referrals.pendingTotal, data.referrals.currency)}</strong>pending
              </div>
              <div className="stat">
                <strong>{formatMoney(data.referrals.paidTotal, data.referrals.currency)}</strong>paid out
              </div>
            </div>
            <Earnings earnings={data.referrals.earnings} />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function ReferralLink(props: { referrals: Referrals }) {
  const { code, link, payoutDestination } = props.referrals;
  const [copied, setCopied] = useState<string | null>(null);
  const [copyError, setCopyError] = useState<string | null>(null);
  const linkId = useId();
  if (!code || !link) return <p className="card">Your account has no referral code yet.</p>;
  const copy = async () => {
    setCopied(null);
    setCopyError(null);
    try {
      await navigator.clipboard.writeText(link);
      setCopied('The referral link is copied.');
    } catch {
      setCopyError('Your browser did not let the page copy; select the link in the field and copy it yourself.');
    }
  };
  return (
    <section className="card card-titled" aria-labelledby="referral-heading">
      <h2 id="referral-heading">Your referral code</h2>
      <p>
        Code <strong className="referral-code">{code}</strong>
      </p>
      <div className="field">
        <label htmlFor={linkId}>Referral link</label>
        <div className="referral-link">
          <input id={linkId} readOnly value={link} aria-describedby={`${linkId}-hint`} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy link
          </button>
        </div>
        <small id={`${linkId}-hint`} className="hint">
          Accounts that sign up through this link earn you a share of their first paid invoice (see below).
        </small>
      </div>
      {copied ? <Notice tone="ok">{copied}</Notice> : null}
      <ErrorBanner message={copyError} />
      <p className="aside">Payouts go to {payoutDestination ?? 'no destination yet'}.</p>
    </section>
  );
}

/** The terms in words: who counts, what is earned and when, where it goes. */
function ReferralTerms(props: { referrals: Referrals }) {
  const { terms, sharePercent, payoutDestination } = props.referrals;
  return (
    <section className="card card-titled" aria-labelledby="referral-terms-heading">
      <h2 id="referral-terms-heading">How referrals work</h2>
      <p>{terms}</p>
      <ul>
        <li>Share your link. It opens the sign-up page with your code filled in; someone signing up another way can type the code.</li>
        <li>
          When that account pays its first invoice, you earn {sharePercent}% of what was charged. An invoice a promotion made free does not count; their next
          paid one does.
        </li>
        <li>Each referred account earns you this once. A code counts only when an account opens with it; an account already open cannot add one later.</li>
        <li>
          Earnings show below as pending at once, and as paid once we have paid them out
          {payoutDestination ? ` to ${payoutDestination}` : '; write to us to set where payouts go'}.
        </li>
      </ul>
    </section>
  );
}

function Earnings(props: { earnings: Referrals['earnings'] }) {
  return (
    <section aria-labelledby="earnings-heading">
      <h2 id="earnings-heading">Referred accounts</h2>
      {props.earnings.length === 0 ? (
        <p>No account has signed up through your link yet.</p>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="earnings-heading" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Earned</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {props.earnings.map((e, i) => (
                <tr key={`${e.referredAccount}-${i}`}>
                  <td>{e.referredAccount}</td>
                  <td>{formatDate(e.earnedAt)}</td>
                  <td>{formatMoney(e.amount, e.currency)}</td>
                  <td>
                    <Chip value={e.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
