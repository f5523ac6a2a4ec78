import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { DomainVerificationQuery, VerifyDomainMutation } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { Field, SelectField } from '../ui/field';
import { DnsConnectionsDocument, connectionWords, dnsConnectionsFromVerificationPath } from './settings-dns';
import { formatDate } from '../ui/format';

const DomainVerificationDocument = graphql(`
  query DomainVerification {
    domainVerification {
      token
      record { nameTemplate type value }
      verifiedDomains { domain verifiedAt }
    }
  }
`);

const VerifyDomainDocument = graphql(`
  mutation VerifyDomain($domain: String!, $connectionId: Int) {
    verifyDomain(domain: $domain, connectionId: $connectionId) {
      domain verified verifiedAt detail
    }
  }
`);

type Verification = DomainVerificationQuery['domainVerification'];
type Result = VerifyDomainMutation['verifyDomain'];

/**
 * Proving domains are the account's own: the token and the TXT record to publish, a "check now" per
 * domain (or "prove it with a DNS connection": the record published through one of the account's
 * connections, then checked at once), and the domains already proved (they stay proved).
 */
export function VerificationPage() {
  const [result, reexecute] = useQuery({ query: DomainVerificationDocument });
  return (
    <Page title="Domain verification">
      <QueryState {...result}>
        {(data) => (
          <>
            <RecordToPublish verification={data.domainVerification} />
            <CheckNow onVerified={() => reexecute({ requestPolicy: 'network-only' })} />
            <VerifiedDomains domains={data.domainVerification.verifiedDomains} />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function RecordToPublish(props: { verification: Verification }) {
  const { token, record } = props.verification;
  return (
    <section className="card card-titled" aria-labelledby="record-heading">
      <h2 id="record-heading">The record to publish</h2>
      <p>
        Before a domain can be ordered, prove it is yours: at your DNS provider, publish this TXT record for each domain (put the domain in place of{' '}
        <code>&lt;domain&gt;</code>). Once we have seen it, the domain stays verified and the record may be removed.
      </p>
      <dl className="verification-record">
        <dt>Your token</dt>
        <dd>
          <code className="secret" data-testid="verification-token">
            {token}
          </code>
        </dd>
        <dt>Name</dt>
        <dd>
          <code className="secret">{record.nameTemplate}</code>
        </dd>
        <dt>Type</dt>
        <dd>
          <code className="secret">{record.type}</code>
        </dd>
        <dt>Value</dt>
        <dd>
          <code className="secret">{record.value}</code>
        </dd>
      </dl>
    </section>
  );
}

/** "" in the "Prove it with" choice: the record the person published themselves, only checked. */
const PUBLISHED_MYSELF = '';

function CheckNow(props: { onVerified: () => void }) {
  const [state, verify] = useMutation(VerifyDomainDocument);
  const [connections] = useQuery({ query: DnsConnectionsDocument });
  const [domain, setDomain] = useState('');
  const [how, setHow] = useState(PUBLISHED_MYSELF);
  const [results, setResults] = useState<readonly Result[]>([]);
  // A key that cannot list connections still checks: the choice then offers only the record published by hand.
  const usable = connections.data?.dnsConnections ?? [];
  const check = async (name: string, connectionId: number | null = null) => {
    const answer = await verify({ domain: name, connectionId });
    const checked = answer.data?.verifyDomain;
    if (!checked) return;
    // Newest answer first, one row per domain.
    setResults((list) => [checked, ...list.filter((r) => r.domain !== checked.domain)]);
    if (checked.verified) props.onVerified();
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await check(domain.trim(), how === PUBLISHED_MYSELF ? null : Number(how));
  };
  const viaConnection = how !== PUBLISHED_MYSELF;
  return (
    <section className="card card-titled" aria-labelledby="check-heading">
      <h2 id="check-heading">Check a domain</h2>
      <p>
        Published the record yourself? Check it now. Or prove it with a DNS connection: we publish the record through one of your connections (a key that
        changes the zone proves it is yours) and check it at once.{' '}
        {usable.length === 0 && !connections.fetching ? (
          <>
            You have no DNS connection yet: <Link href={dnsConnectionsFromVerificationPath}>add one in Settings</Link>.
          </>
        ) : null}
      </p>
      <form className="toolbar" onSubmit={(event) => void submit(event)}>
        <Field
          label="Domain"
          name="domain"
          required
          placeholder="example.com"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
        />
        {usable.length > 0 ? (
          <SelectField
            label="Prove it with"
            value={how}
            onChange={(e) => setHow(e.target.value)}
            options={[
              { value: PUBLISHED_MYSELF, label: 'The record I published' },
              ...usable.map((c) => ({ value: String(c.connectionId), label: `DNS connection ${c.connectionId}: ${connectionWords(c)}` })),
            ]}
          />
        ) : null}
        <button type="submit" className="primary" disabled={state.fetching}>
          {state.fetching ? (viaConnection ? 'Publishing…' : 'Checking…') : viaConnection ? 'Publish and check' : 'Check now'}
        </button>
      </form>
      <ErrorBanner message={errorSentence(state.error)} />
      {results.length > 0 ? (
        <ul className="check-results" aria-label="Checked domains">
          {results.map((r) => (
            <li key={r.domain} className="check-result">
              <div className="check-result-head">
                <strong>{r.domain}</strong>
                {r.verified ? <Chip value="verified" /> : <Chip value="not_verified" />}
                {r.verified ? null : (
                  <button type="button" disabled={state.fetching} onClick={() => void check(r.domain)}>
                    Check again<span className="sr-only"> {r.domain}</span>
                  </button>
                )}
              </div>
              {/* The service's own sentence: what it found and, when not verified, what to publish. */}
              <p role={r.verified ? 'status' : 'alert'} className={r.verified ? 'banner banner-ok' : 'banner banner-warn'}>
                {r.detail}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function VerifiedDomains(props: { domains: Verification['verifiedDomains'] }) {
  return (
    <section aria-labelledby="verified-heading">
      <h2 id="verified-heading">Verified domains</h2>
      {props.domains.length === 0 ? (
        <p>No domain is verified yet.</p>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="verified-heading" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Verified since</th>
              </tr>
            </thead>
            <tbody>
              {props.domains.map((d) => (
                <tr key={d.domain}>
                  <td>{d.domain}</td>
                  <td>{formatDate(d.verifiedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
