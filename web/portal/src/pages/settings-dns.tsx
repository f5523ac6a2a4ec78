import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { DnsConnectionInput, DnsConnectionKind, DnsConnectionsQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field, SelectField } from '../ui/field';
import { formatDate } from '../ui/format';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { useHashTarget } from '../ui/hash-target';

export const DnsConnectionsDocument = graphql(`
  query DnsConnections {
    dnsConnections { connectionId kind label server port keyName algorithm createdAt }
  }
`);

const CreateDnsConnectionDocument = graphql(`
  mutation CreateDnsConnection($input: DnsConnectionInput!) {
    createDnsConnection(input: $input) { connectionId kind label }
  }
`);

const DeleteDnsConnectionDocument = graphql(`
  mutation DeleteDnsConnection($connectionId: Int!) {
    deleteDnsConnection(connectionId: $connectionId) { connectionId deleted }
  }
`);

export type DnsConnection = DnsConnectionsQuery['dnsConnections'][number];

/** A connection in a few words: its label, else where it points. */
export function connectionWords(c: DnsConnection): string {
  const where = c.kind === 'cloudflare' ? 'Cloudflare' : `DNS server ${c.server ?? ''}${c.port && c.port !== 53 ? ` port ${c.port}` : ''}`;
  return c.label ? `${c.label} (${where})` : where;
}

/** The settings address that opens this section, with a way back to the setup of `domain`. */
export const dnsConnectionsPath = (domain: string) =>
  `/settings?return_to=${encodeURIComponent(`/domains/${encodeURIComponent(domain)}/setup`)}#dns-connections`;

/** The same from the verification page, whose "prove it with a DNS connection" needs one first. */
export const dnsConnectionsFromVerificationPath = `/settings?return_to=${encodeURIComponent('/verification')}#dns-connections`;

/** Where `?return_to=` leads back to: only a domain's setup page or the verification page in this portal, never another site. */
function returnTo(search: string): { path: string; label: string } | null {
  const path = new URLSearchParams(search).get('return_to');
  if (path === '/verification') return { path, label: 'Back to Domain verification' };
  const match = path ? /^\/domains\/([^/?#]+)\/setup$/.exec(path) : null;
  if (!path || !match) return null;
  try {
    return { path, label: `Back to the setup of ${decodeURIComponent(match[1]!)}` };
  } catch {
    return null;
  }
}

/**
 * Settings → DNS connections: where "publish for me" writes a domain's records. A server that takes
 * signed dynamic updates (BIND, Knot, PowerDNS and several providers) or a Cloudflare API token. The
 * secret or token is typed into a password field, stored encrypted and never shown again.
 */
export function DnsConnectionsSection() {
  const [result, refetch] = useQuery({ query: DnsConnectionsDocument });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const back = returnTo(useSearch());
  useHashTarget(result.data !== undefined);
  return (
    <section id="dns-connections" tabIndex={-1} className="card settings-section" aria-labelledby="dns-connections-heading">
      <h2 id="dns-connections-heading">DNS connections</h2>
      {back ? (
        <p>
          <Link href={back.path}>{back.label}</Link>
        </p>
      ) : null}
      <p className="aside">
        With a connection to your DNS provider, a domain’s setup page can publish its records for you. Secrets and tokens are stored encrypted and never shown
        again, here or anywhere.
      </p>
      <CreateConnectionForm onCreated={refresh} />
      <QueryState {...result}>
        {(data) =>
          data.dnsConnections.length === 0 ? (
            <p>No connections yet.</p>
          ) : (
            <ul className="webhook-list" aria-label="Your DNS connections">
              {data.dnsConnections.map((c) => (
                <ConnectionItem key={c.connectionId} connection={c} onChanged={refresh} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateConnectionForm(props: { onCreated: () => void }) {
  const [creating, create] = useMutation(CreateDnsConnectionDocument);
  const [kind, setKind] = useState<DnsConnectionKind>('rfc2136');
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const label = text('label');
    let input: DnsConnectionInput;
    if (kind === 'cloudflare') {
      input = { kind, apiToken: text('apiToken'), ...(label ? { label } : {}) };
    } else {
      const port = text('port');
      input = {
        kind,
        server: text('server'),
        keyName: text('keyName'),
        secret: text('secret'),
        algorithm: text('algorithm') === 'hmac_sha512' ? 'hmac_sha512' : 'hmac_sha256',
        ...(port ? { port: Number(port) } : {}),
        ...(label ? { label } : {}),
      };
    }
    setError(null);
    setMade(null);
    const answer = await create({ input });
    if (answer.data) {
      // The form, secret included, is emptied: the secret stays only with the service, encrypted.
      formElement.reset();
      setMade(`Connection ${answer.data.createDnsConnection.label ?? `number ${answer.data.createDnsConnection.connectionId}`} added.`);
      props.onCreated();
    } else {
      setError(errorSentence(answer.error) ?? 'The connection was not added.');
    }
  };
  return (
    <form className="narrow-form" onSubmit={(event) => void submit(event)} aria-labelledby="new-dns-connection-heading" autoComplete="off">
      <h3 id="new-dns-connection-heading">Add a connection</h3>
      <ErrorBanner message={error} />
      {made ? <Notice tone="ok">{made}</Notice> : null}
      <SelectField
        label="Kind"
        name="kind"
        value={kind}
        onChange={(e) => setKind(e.target.value === 'cloudflare' ? 'cloudflare' : 'rfc2136')}
        options={[
          { value: 'rfc2136', label: 'DNS server with signed updates (BIND, Knot, PowerDNS…)' },
          { value: 'cloudflare', label: 'Cloudflare' },
        ]}
      />
      <Field label="Label (optional)" name="label" maxLength={100} placeholder="Main DNS" />
      {kind === 'cloudflare' ? (
        <Field
          label="API token"
          name="apiToken"
          type="password"
          required
          autoComplete="new-password"
          spellCheck={false}
          hint="A Cloudflare API token allowed to edit DNS (Zone → DNS → Edit) of your domains' zones. Shown never again."
        />
      ) : (
        <>
          <Field label="Server" name="server" required placeholder="ns1.example.net" hint="Your primary DNS server's public address or host name." />
          <Field label="Port" name="port" type="number" min={1} max={65535} placeholder="53" hint="53 when left empty." />
          <Field label="TSIG key" name="keyName" required spellCheck={false} hint="The TSIG key's name, as in the server's key statement." />
          <SelectField
            label="Algorithm"
            name="algorithm"
            defaultValue="hmac_sha256"
            options={[
              { value: 'hmac_sha256', label: 'hmac-sha256' },
              { value: 'hmac_sha512', label: 'hmac-sha512' },
            ]}
          />
          <Field
            label="Secret"
            name="secret"
            type="password"
            required
            autoComplete="new-password"
            spellCheck={false}
            hint="The key's secret, in base64. Stored encrypted and shown never again."
          />
        </>
      )}
      <button type="submit" className="primary" disabled={creating.fetching}>
        {creating.fetching ? 'Adding…' : 'Add connection'}
      </button>
    </form>
  );
}

function ConnectionItem(props: { connection: DnsConnection; onChanged: () => void }) {
  const { connection } = props;
  const [deleting, remove] = useMutation(DeleteDnsConnectionDocument);
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const confirmDelete = async () => {
    const answer = await remove({ connectionId: connection.connectionId });
    if (answer.error) setMessage(errorSentence(answer.error));
    else props.onChanged();
    setAsking(false);
  };
  return (
    <li className="webhook" data-testid="dns-connection">
      <p>
        <strong>{connection.label ?? (connection.kind === 'cloudflare' ? 'Cloudflare' : connection.server)}</strong>{' '}
        <span className="hint">connection {connection.connectionId}</span>
      </p>
      <p className="hint">
        {connection.kind === 'cloudflare'
          ? 'Cloudflare, with an API token'
          : `Signed updates to ${connection.server ?? ''} port ${connection.port ?? 53}, key ${connection.keyName ?? ''} (${(connection.algorithm ?? 'hmac_sha256').replace('_', '-')})`}
        {' · '}added {formatDate(connection.createdAt)}
      </p>
      <ErrorBanner message={message} />
      {asking ? (
        <p>
          Delete this connection and its stored secret?{' '}
          <ConfirmButtons confirmLabel="Yes, delete it" busy={deleting.fetching} onConfirm={() => void confirmDelete()} onCancel={() => setAsking(false)} />
        </p>
      ) : (
        <button type="button" className="danger small" onClick={() => setAsking(true)}>
          Delete<span className="sr-only"> the connection {connectionWords(connection)}</span>
        </button>
      )}
    </li>
  );
}
