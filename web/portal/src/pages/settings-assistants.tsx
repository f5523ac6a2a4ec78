import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConnectedAssistantsQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { formatDate, formatDateTime } from '../ui/format';
import { ConfirmButtons } from '../ui/confirm-buttons';

/** Settings: the assistants the signed-in person connected through the MCP sign-in (docs/mcp.md), each disconnectable. */
const ConnectedAssistantsDocument = graphql(`
  query ConnectedAssistants {
    connectedAssistants { connectionId clientName clientId scopes connectedAt lastUsedAt }
  }
`);

const RevokeConnectedAssistantDocument = graphql(`
  mutation RevokeConnectedAssistant($connectionId: String!) {
    revokeConnectedAssistant(connectionId: $connectionId) { connectionId revoked }
  }
`);

type Assistant = ConnectedAssistantsQuery['connectedAssistants'][number];

export function ConnectedAssistantsSection() {
  const [result, reexecute] = useQuery({ query: ConnectedAssistantsDocument });
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  return (
    <section className="card settings-section" aria-labelledby="assistants-heading">
      <h2 id="assistants-heading">Connected assistants</h2>
      <p className="aside">
        Assistants (Claude, MCP Inspector, …) you allowed to use the account through its MCP endpoint, <code>/mcp</code>, by signing in rather than with a key.
        Each holds only the scopes you ticked; disconnecting one stops it at once.
      </p>
      <QueryState {...result}>{(data) => <AssistantTable assistants={data.connectedAssistants} onRevoked={refresh} />}</QueryState>
    </section>
  );
}

function AssistantTable(props: { assistants: readonly Assistant[]; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [revoking, revoke] = useMutation(RevokeConnectedAssistantDocument);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const notice = message ? message.ok ? <Notice tone="ok">{message.text}</Notice> : <ErrorBanner message={message.text} /> : null;
  if (props.assistants.length === 0) {
    return (
      <>
        {notice}
        <p>No assistant is connected. Point one at this account's MCP endpoint and sign in when it asks.</p>
      </>
    );
  }
  const doRevoke = async (assistant: Assistant) => {
    const answer = await revoke({ connectionId: assistant.connectionId });
    setConfirming(null);
    if (answer.data) {
      setMessage({ ok: true, text: `“${assistant.clientName}” is disconnected; its next call is refused.` });
      props.onRevoked();
    } else {
      setMessage({ ok: false, text: errorSentence(answer.error) ?? 'The assistant was not disconnected.' });
    }
  };
  return (
    <>
      {notice}
      <div className="table-wrap">
        <table className="stack-table">
          <caption className="sr-only">Assistants connected to the account</caption>
          <thead>
            <tr>
              <th scope="col">Assistant</th>
              <th scope="col">Scopes</th>
              <th scope="col">Connected</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.assistants.map((assistant) => (
              <tr key={assistant.connectionId}>
                <td data-label="Assistant">{assistant.clientName}</td>
                <td data-label="Scopes">{assistant.scopes.join(', ')}</td>
                <td data-label="Connected">{formatDate(assistant.connectedAt)}</td>
                <td data-label="Last used">{assistant.lastUsedAt ? formatDateTime(assistant.lastUsedAt) : 'Never'}</td>
                <td data-label="Actions">
                  {confirming === assistant.connectionId ? (
                    <div className="confirm" role="group" aria-label={`Confirm disconnecting ${assistant.clientName}`}>
                      <span>Disconnect it? It must ask you again to come back.</span>
                      <ConfirmButtons
                        confirmLabel="Yes, disconnect"
                        busy={revoking.fetching}
                        onConfirm={() => void doRevoke(assistant)}
                        onCancel={() => setConfirming(null)}
                      />
                    </div>
                  ) : (
                    <button
                      type="button"
                      className="danger small"
                      aria-label={`Disconnect ${assistant.clientName}`}
                      onClick={() => {
                        setMessage(null);
                        setConfirming(assistant.connectionId);
                      }}
                    >
                      Disconnect
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
