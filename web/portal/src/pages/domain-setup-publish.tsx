import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ApplyDomainSetupMutation } from '../gql/graphql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { SelectField } from '../ui/field';
import { DnsConnectionsDocument, connectionWords, dnsConnectionsPath } from './settings-dns';

const ApplyDomainSetupDocument = graphql(`
  mutation ApplyDomainSetup($domain: String!, $connectionId: Int!, $dryRun: Boolean!) {
    applyDomainSetup(domain: $domain, connectionId: $connectionId, dryRun: $dryRun) {
      dryRun
      changes { action replaces { type name value priority } record { type name value ttl priority } }
    }
  }
`);

type Applied = ApplyDomainSetupMutation['applyDomainSetup'];
type Change = Applied['changes'][number];

/** One change in words: what is added, or what is replaced and by what. */
function changeWords(change: Change, done: boolean): string {
  const { record } = change;
  const what = `${record.type} record at ${record.name}`;
  const value = record.type === 'MX' && record.priority !== null && record.priority !== undefined ? `${record.priority} ${record.value}` : record.value;
  const replaced = change.replaces
    .map((r) => (r.type === 'MX' && r.priority !== null && r.priority !== undefined ? `${r.priority} ${r.value}` : r.value))
    .join(', ');
  if (change.action === 'replace') return `${done ? 'Replaced' : 'Replace'} the ${what}${replaced ? ` (now ${replaced})` : ''} with ${value}`;
  return `${done ? 'Added' : 'Add'} a ${what}: ${value}`;
}

/**
 * "Publish for me": pick one of the account's DNS connections, see first what a dry run would change
 * (in words), then publish; the page checks the records again afterwards.
 */
export function PublishForMe(props: { domain: string; onPublished: () => void }) {
  const [connections] = useQuery({ query: DnsConnectionsDocument });
  const [chosen, setChosen] = useState<number | null>(null);
  const [plan, setPlan] = useState<{ connectionId: number; changes: readonly Change[] } | null>(null);
  const [made, setMade] = useState<readonly Change[] | null>(null);
  const [running, apply] = useMutation(ApplyDomainSetupDocument);
  const [error, setError] = useState<string | null>(null);

  const run = async (connectionId: number, dryRun: boolean) => {
    setError(null);
    const answer = await apply({ domain: props.domain, connectionId, dryRun });
    const applied = answer.data?.applyDomainSetup;
    if (!applied) {
      setError(errorSentence(answer.error) ?? 'Nothing was published; try again.');
      return;
    }
    if (dryRun) {
      setPlan({ connectionId, changes: applied.changes });
      setMade(null);
    } else {
      setPlan(null);
      setMade(applied.changes);
      props.onPublished();
    }
  };

  return (
    <section className="card card-titled" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish for me</h2>
      <QueryState {...connections}>
        {(data) => {
          if (data.dnsConnections.length === 0)
            return (
              <p>
                We can publish the records of {props.domain} at your DNS provider for you.{' '}
                <Link href={dnsConnectionsPath(props.domain)}>Add a DNS connection in Settings</Link> first.
              </p>
            );
          const connectionId = chosen ?? data.dnsConnections[0]!.connectionId;
          return (
            <>
              <p>
                We publish the records above through one of your DNS connections: first you see what would change, then nothing is written until you press
                Publish. Records we did not write are left alone, except the ones replaced below.
              </p>
              <div className="toolbar">
                <SelectField
                  label="DNS connection"
                  value={String(connectionId)}
                  onChange={(e) => {
                    setChosen(Number(e.target.value));
                    setPlan(null);
                  }}
                  options={data.dnsConnections.map((c) => ({ value: String(c.connectionId), label: connectionWords(c) }))}
                />
                <button type="button" onClick={() => void run(connectionId, true)} disabled={running.fetching}>
                  {running.fetching && !plan ? 'Looking…' : 'Show the changes'}
                </button>
              </div>
              <ErrorBanner message={error} />
              {plan && plan.connectionId === connectionId ? (
                plan.changes.length === 0 ? (
                  <Notice tone="ok">Nothing to change: the DNS already holds every record as wanted.</Notice>
                ) : (
                  <div role="region" aria-label="Changes to publish">
                    <p>
                      A dry run: nothing has been written yet. Publishing makes {plan.changes.length} {plan.changes.length === 1 ? 'change' : 'changes'}:
                    </p>
                    <ol className="publish-changes" data-testid="planned-changes">
                      {plan.changes.map((change) => (
                        <li key={`${change.action}-${change.record.type}-${change.record.name}-${change.record.value}`}>{changeWords(change, false)}</li>
                      ))}
                    </ol>
                    <button
                      type="button"
                      className="primary"
                      onClick={() => void run(connectionId, false)}
                      disabled={running.fetching}
                      aria-busy={running.fetching}
                    >
                      {running.fetching ? 'Publishing…' : 'Publish'}
                    </button>
                  </div>
                )
              ) : null}
              {made ? (
                <Notice tone="ok">
                  {made.length === 0
                    ? 'Nothing needed changing. Checking the records again.'
                    : `Published ${made.length} ${made.length === 1 ? 'change' : 'changes'}. Checking the records again; a DNS provider may take a minute to serve them.`}
                </Notice>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
