import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useClient, useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { DomainSetupQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, QueryState } from '../ui/status';
import { Chip } from '../ui/chip';
import { formatDateTime } from '../ui/format';
import { PublishForMe } from './domain-setup-publish';
import { PublishHistory } from './domain-setup-applies';

const DomainSetupDocument = graphql(`
  query DomainSetup($domain: String!) {
    domainSetup(domain: $domain) {
      domain buildState ready reason checkedAt readFrom cachesMayHoldUntil cacheNote
      records { purpose type name value priority ttl required status found detail }
    }
  }
`);

const CheckDomainSetupDocument = graphql(`
  mutation CheckDomainSetup($domain: String!) {
    checkDomainSetup(domain: $domain) {
      domain buildState ready reason checkedAt readFrom cachesMayHoldUntil cacheNote
      records { purpose type name value priority ttl required status found detail }
    }
  }
`);

const DomainSetupZoneDocument = graphql(`
  query DomainSetupZone($domain: String!) {
    domainSetupZone(domain: $domain)
  }
`);

type Setup = DomainSetupQuery['domainSetup'];
type SetupRecord = Setup['records'][number];

/** The setup page of one domain (under /portal). */
export const setupPath = (domain: string) => `/domains/${encodeURIComponent(domain)}/setup`;

/** How often the open page checks the records again by itself (only while the tab is visible). */
export const RECHECK_EVERY_MS = 30_000;
/** How often the page looks whether a check is due. */
const RECHECK_TICK_MS = 5_000;

const PURPOSES: Record<string, string> = {
  mx: 'Mail servers',
  spf: 'Allowed senders (SPF)',
  dkim: 'Signing key (DKIM)',
  dmarc: 'Sender policy and reports (DMARC)',
  forwarding: 'Web forwarding',
  verification: 'Proof that the domain is yours',
  tls_rpt: 'Secure delivery reports (TLS-RPT)',
};

/** The build state in words for a person, beside the service's own reason. */
const STATE_WORDS: Record<string, string> = {
  queued: 'Your order is in: building this domain starts in a moment.',
  building: 'We are creating the mailboxes and the key that signs their mail.',
  waiting_for_dns:
    'The mailboxes are ready; we are waiting for the records below to appear in your domain’s DNS. Publish them at your DNS provider (or let us publish them for you); this page checks again by itself every 30 seconds while it is open.',
  live: 'Live: every record is in place and the mailboxes exist.',
  needs_attention:
    'Needs attention: a record that was working has changed or gone. Fix the records marked below; the domain goes back to live by itself once they are right.',
};

const STATUS_WORDS: Record<string, string> = {
  verified: 'verified',
  missing: 'missing',
  wrong: 'wrong',
  conflict: 'conflict',
  unknown: 'not checked',
  delegated: 'hosted elsewhere',
};

/**
 * One domain's setup: its build state in words, every record it needs with copy buttons and its
 * status, check now (and again every 30 s while the tab is visible), the zone snippet to download,
 * and "publish for me" through one of the account's DNS connections.
 */
export function DomainSetupPage() {
  const params = useParams<{ domain: string }>();
  const domain = decodeURIComponent(params.domain ?? '').toLowerCase();
  const [result, reexecute] = useQuery({ query: DomainSetupDocument, variables: { domain } });
  // Counts publishes made on this page, so the list of publishes reads again after each.
  const [publishes, setPublishes] = useState(0);
  const [checking, check] = useMutation(CheckDomainSetupDocument);
  const [checked, setChecked] = useState<Setup | null>(null);
  const [announce, setAnnounce] = useState('');
  const busy = useRef(false);
  const lastCheck = useRef(Date.now());

  const checkNow = useCallback(
    async (byPerson: boolean) => {
      if (busy.current) return;
      busy.current = true;
      lastCheck.current = Date.now();
      try {
        const answer = await check({ domain });
        const setup = answer.data?.checkDomainSetup;
        if (setup) {
          setChecked(setup);
          if (byPerson) setAnnounce(`Checked at ${formatDateTime(setup.checkedAt)}: ${summary(setup)}`);
        }
      } finally {
        busy.current = false;
      }
    },
    [check, domain],
  );

  // Re-checks while the page is open: a check is due 30 s after the last one (the person's or the
  // page's own); a hidden tab asks nothing, and checks at once when shown again if one is due.
  useEffect(() => {
    const due = () => document.visibilityState === 'visible' && Date.now() - lastCheck.current >= RECHECK_EVERY_MS;
    const timer = window.setInterval(() => {
      if (due()) void checkNow(false);
    }, RECHECK_TICK_MS);
    const onVisible = () => {
      if (due()) void checkNow(false);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [checkNow]);

  // A new read (another domain, a refetch) wins over an older check.
  const shown = pickNewer(result.data?.domainSetup, checked);
  return (
    <Page
      title={`Setup of ${domain}`}
      actions={
        <Link href="/" className="button-link">
          Back to the dashboard
        </Link>
      }
    >
      <QueryState fetching={result.fetching} error={result.error} data={shown ?? undefined}>
        {(setup) => (
          <>
            <StateCard setup={setup} />
            <section className="card card-titled" aria-labelledby="records-heading">
              <h2 id="records-heading">The records to publish</h2>
              <p className="aside">
                Add these at your DNS provider, exactly as shown: the name, the type and the value. Records marked optional are not needed for the domain to go
                live.
              </p>
              <div className="toolbar setup-actions">
                <button type="button" className="primary" onClick={() => void checkNow(true)} disabled={checking.fetching} aria-busy={checking.fetching}>
                  {checking.fetching ? 'Checking…' : 'Check now'}
                </button>
                <ZoneDownload domain={setup.domain} />
                <span className="hint" data-testid="checked-at">
                  Last checked {formatDateTime(setup.checkedAt)}
                </span>
              </div>
              <ErrorBanner message={errorSentence(checking.error)} />
              <p className="sr-only" role="status" aria-live="polite">
                {announce}
              </p>
              <ul className="setup-records">
                {setup.records.map((record) => (
                  <RecordCard key={`${record.purpose}-${record.name}-${record.type}`} record={record} />
                ))}
              </ul>
            </section>
            <PublishForMe
              domain={setup.domain}
              onPublished={() => {
                void checkNow(true);
                reexecute({ requestPolicy: 'network-only' });
                setPublishes((n) => n + 1);
              }}
            />
            <PublishHistory
              domain={setup.domain}
              refreshKey={publishes}
              onReverted={() => {
                void checkNow(true);
                reexecute({ requestPolicy: 'network-only' });
              }}
            />
          </>
        )}
      </QueryState>
    </Page>
  );
}

function pickNewer(read: Setup | undefined, checked: Setup | null): Setup | null {
  if (!read) return checked;
  if (!checked || checked.domain !== read.domain) return read;
  return Date.parse(checked.checkedAt) >= Date.parse(read.checkedAt) ? checked : read;
}

function summary(setup: Setup): string {
  const verified = setup.records.filter((r) => r.status === 'verified').length;
  return `${verified} of ${setup.records.length} records verified; the domain is ${setup.buildState.replaceAll('_', ' ')}.`;
}

function StateCard(props: { setup: Setup }) {
  const { setup } = props;
  const tone = setup.buildState === 'live' ? 'ok' : setup.buildState === 'needs_attention' ? 'warn' : 'info';
  return (
    <section className="card card-titled" aria-labelledby="state-heading">
      <h2 id="state-heading">
        State: <Chip value={setup.buildState} label={setup.buildState === 'waiting_for_dns' ? 'waiting for DNS' : undefined} />
      </h2>
      <p className={`banner banner-${tone}`} data-testid="state-words">
        {STATE_WORDS[setup.buildState] ?? setup.buildState}
      </p>
      {setup.reason ? (
        <p data-testid="state-reason">
          <strong>Why: </strong>
          {setup.reason}
        </p>
      ) : null}
      {setup.cachesMayHoldUntil ? (
        <p className="banner banner-info" data-testid="cache-note">
          <strong>Caches: </strong>
          Your zone already serves the records. Other DNS resolvers may keep the old answer until {formatDateTime(setup.cachesMayHoldUntil)}. {setup.cacheNote}
        </p>
      ) : null}
      <p className="hint" data-testid="read-from">
        Read from {setup.readFrom}, not from a cache.
      </p>
    </section>
  );
}

function RecordCard(props: { record: SetupRecord }) {
  const { record } = props;
  const what = `${PURPOSES[record.purpose] ?? record.purpose} record`;
  const value = record.value;
  const showFound = (record.status === 'wrong' || record.status === 'conflict' || record.status === 'delegated') && record.found.length > 0;
  return (
    <li className="card setup-record" aria-label={what} data-purpose={record.purpose} data-status={record.status}>
      <div className="setup-record-head">
        <h3>{PURPOSES[record.purpose] ?? record.purpose}</h3>
        <Chip value={record.status} label={STATUS_WORDS[record.status]} />
        {record.required ? null : <span className="hint">optional</span>}
      </div>
      <dl className="setup-record-fields">
        <div>
          <dt>Type</dt>
          <dd>
            <code>{record.type}</code>
          </dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd className="copyable">
            <code className="secret" data-testid="record-name">
              {record.name}
            </code>
            <CopyButton text={record.name} label="Copy name" what={what} />
          </dd>
        </div>
        {record.priority !== null && record.priority !== undefined ? (
          <div>
            <dt>Priority</dt>
            <dd>
              <code>{record.priority}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Value</dt>
          <dd className="copyable">
            <code className="secret" data-testid="record-value">
              {value}
            </code>
            <CopyButton text={value} label="Copy value" what={what} />
          </dd>
        </div>
        <div>
          <dt>TTL</dt>
          <dd>
            <code>{record.ttl}</code> seconds
          </dd>
        </div>
        {showFound ? (
          <div>
            <dt>Found now</dt>
            <dd>
              <ul className="plain-list" data-testid="record-found">
                {record.found.map((found) => (
                  <li key={found}>
                    <code className="secret">{found}</code>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
      <p className="setup-record-detail">{record.detail}</p>
    </li>
  );
}

/** Puts the text on the clipboard and says so for a moment (in words, and to a screen reader). */
function CopyButton(props: { text: string; label: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2500);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="small" onClick={() => void copy()}>
        {props.label}
        <span className="sr-only"> of the {props.what}</span>
      </button>
      <span role="status" className="hint copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Your browser did not allow copying; select the text instead.' : ''}
      </span>
    </span>
  );
}

/** The records as a zone-file snippet, saved as a file the person can import at their DNS provider. */
function ZoneDownload(props: { domain: string }) {
  const client = useClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await client.query(DomainSetupZoneDocument, { domain: props.domain }, { requestPolicy: 'network-only' }).toPromise();
      const zone = answer.data?.domainSetupZone;
      if (zone === undefined) {
        setError(errorSentence(answer.error) ?? 'The zone file could not be made; try again.');
        return;
      }
      const url = URL.createObjectURL(new Blob([zone], { type: 'text/dns' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${props.domain}.zone`;
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void download()} disabled={busy}>
        Download the zone file
      </button>
      {error ? (
        <p role="alert" className="banner banner-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
