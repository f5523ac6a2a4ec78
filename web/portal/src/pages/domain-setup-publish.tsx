import { useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { QueryState } from '../ui/status';
import { SelectField } from '../ui/field';
import { DnsConnectionsDocument, connectionWords } from './settings-dns';

/**
 * "Publish for me": pick one of the account's DNS connections, see the changes a dry run would make
 * in words, then publish them; the page checks the records again afterwards.
 */
export function PublishForMe(props: { domain: string; onPublished: () => void }) {
  const [connections] = useQuery({ query: DnsConnectionsDocument });
  const [chosen, setChosen] = useState('');
  return (
    <section className="card card-titled" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish for me</h2>
      <QueryState {...connections}>
        {(data) =>
          data.dnsConnections.length === 0 ? (
            <p>
              We can publish the records of {props.domain} at your DNS provider for you. <Link href="/settings">Add a DNS connection in Settings</Link> first.
            </p>
          ) : (
            <SelectField
              label="DNS connection"
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
              options={data.dnsConnections.map((c) => ({ value: String(c.connectionId), label: connectionWords(c) }))}
            />
          )
        }
      </QueryState>
    </section>
  );
}
