import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { FoldersQuery } from '../gql/graphql';
import { errorSentence } from '../api';
import { Page } from '../ui/page';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { Field } from '../ui/field';
import { formatDate } from '../ui/format';

const FoldersDocument = graphql(`
  query Folders {
    workspaces { unfiledDomainCount workspaces { workspaceId name domainCount createdAt } }
    dashboard { orders { orderId reference domains { domain workspaceId } } }
  }
`);

const CreateFolderDocument = graphql(`
  mutation CreateFolder($input: WorkspaceNameInput!) {
    createWorkspace(input: $input) { workspaceId name }
  }
`);

const RenameFolderDocument = graphql(`
  mutation RenameFolder($workspaceId: Int!, $input: WorkspaceNameInput!) {
    renameWorkspace(workspaceId: $workspaceId, input: $input) { workspaceId name }
  }
`);

const DeleteFolderDocument = graphql(`
  mutation DeleteFolder($workspaceId: Int!) {
    deleteWorkspace(workspaceId: $workspaceId) { workspaceId unfiledDomainCount }
  }
`);

const FileDomainDocument = graphql(`
  mutation FileDomain($domain: String!, $input: FileDomainInput!) {
    fileDomain(domain: $domain, input: $input) { domain workspaceId workspaceName }
  }
`);

type Folder = FoldersQuery['workspaces']['workspaces'][number];

/** The last change's outcome: the service's refusal or our confirmation, shown once at the top. */
type Outcome = { readonly ok: boolean; readonly text: string } | null;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Folders (the API's workspaces): create, rename, delete, and file each domain in one or none. */
export function FoldersPage() {
  const [result, reexecute] = useQuery({ query: FoldersDocument });
  const [outcome, setOutcome] = useState<Outcome>(null);
  // Every change alters counts the query holds in other types, so the page is asked for again.
  const report = (ok: boolean, text: string) => {
    setOutcome({ ok, text });
    if (ok) reexecute({ requestPolicy: 'network-only' });
  };
  return (
    <Page title="Folders">
      {outcome ? outcome.ok ? <Notice tone="ok">{outcome.text}</Notice> : <ErrorBanner message={outcome.text} /> : null}
      <QueryState {...result}>
        {(data) => (
          <>
            <div className="stats">
              <div className="stat">
                <strong>{data.workspaces.workspaces.length}</strong>folders
              </div>
              <div className="stat">
                <strong>{data.workspaces.unfiledDomainCount}</strong>unfiled domains
              </div>
            </div>
            <CreateFolder report={report} />
            <FolderTable folders={data.workspaces.workspaces} report={report} />
            <DomainFiling orders={data.dashboard.orders} folders={data.workspaces.workspaces} report={report} />
          </>
        )}
      </QueryState>
    </Page>
  );
}

type Report = (ok: boolean, text: string) => void;

function CreateFolder(props: { report: Report }) {
  const [name, setName] = useState('');
  const [state, create] = useMutation(CreateFolderDocument);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const answer = await create({ input: { name } });
    if (answer.error || !answer.data) return props.report(false, errorSentence(answer.error) ?? 'The folder was not created.');
    props.report(true, `Folder "${answer.data.createWorkspace.name}" created.`);
    setName('');
  }
  return (
    <form className="card toolbar" onSubmit={(e) => void submit(e)} aria-label="New folder">
      <Field label="New folder name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoComplete="off" />
      <button type="submit" className="primary" disabled={state.fetching}>
        Create folder
      </button>
    </form>
  );
}

function FolderTable(props: { folders: readonly Folder[]; report: Report }) {
  if (props.folders.length === 0) return <p>No folders yet: create one above, then file domains into it below.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">Folders</caption>
        <thead>
          <tr>
            <th scope="col">Folder</th>
            <th scope="col">Domains</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.folders.map((f) => (
            <FolderRow key={f.workspaceId} folder={f} report={props.report} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One folder: its name, or the rename form, or the question whether to delete it. */
function FolderRow(props: { folder: Folder; report: Report }) {
  const { folder } = props;
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [name, setName] = useState(folder.name);
  const [renaming, rename] = useMutation(RenameFolderDocument);
  const [deleting, remove] = useMutation(DeleteFolderDocument);
  const question = useRef<HTMLParagraphElement>(null);
  // Asking whether to delete puts the keyboard on the question, so it is read out before the buttons.
  useEffect(() => {
    if (mode === 'delete') question.current?.focus();
  }, [mode]);

  async function submitRename(event: FormEvent) {
    event.preventDefault();
    const answer = await rename({ workspaceId: folder.workspaceId, input: { name } });
    if (answer.error || !answer.data) return props.report(false, errorSentence(answer.error) ?? 'The folder was not renamed.');
    setMode('view');
    props.report(true, `Folder "${folder.name}" renamed to "${answer.data.renameWorkspace.name}".`);
  }

  async function confirmDelete() {
    const answer = await remove({ workspaceId: folder.workspaceId });
    if (answer.error || !answer.data) return props.report(false, errorSentence(answer.error) ?? 'The folder was not deleted.');
    const kept = answer.data.deleteWorkspace.unfiledDomainCount;
    props.report(true, `Folder "${folder.name}" deleted${kept > 0 ? `; its ${plural(kept, 'domain is', 'domains are')} now unfiled` : ''}.`);
  }

  return (
    <tr>
      <td>
        {mode === 'rename' ? (
          <form className="inline-form" onSubmit={(e) => void submitRename(e)}>
            <Field
              label={`New name for "${folder.name}"`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={200}
              autoFocus
              autoComplete="off"
            />
            <div className="row-actions">
              <button type="submit" className="primary" disabled={renaming.fetching}>
                Save name
              </button>
              <button
                type="button"
                onClick={() => {
                  setName(folder.name);
                  setMode('view');
                }}
              >
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <>
            {folder.name}
            <div className="hint">Created {formatDate(folder.createdAt)}</div>
          </>
        )}
        {mode === 'delete' ? (
          <div className="confirm" role="group" aria-label={`Delete folder "${folder.name}"?`}>
            <p ref={question} tabIndex={-1}>
              Delete folder "{folder.name}"?{' '}
              {folder.domainCount > 0
                ? `Its ${plural(folder.domainCount, 'domain stays on its order', 'domains stay on their orders')}, unfiled.`
                : 'It holds no domains.'}
            </p>
            <div className="row-actions">
              <button type="button" className="danger" onClick={() => void confirmDelete()} disabled={deleting.fetching}>
                Yes, delete "{folder.name}"
              </button>
              <button type="button" onClick={() => setMode('view')}>
                Keep it
              </button>
            </div>
          </div>
        ) : null}
      </td>
      <td>{folder.domainCount}</td>
      <td>
        {mode === 'view' ? (
          <div className="row-actions">
            <button type="button" onClick={() => setMode('rename')} aria-label={`Rename "${folder.name}"`}>
              Rename
            </button>
            <button type="button" className="danger" onClick={() => setMode('delete')} aria-label={`Delete "${folder.name}"`}>
              Delete
            </button>
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/** Every domain of every order with the folder it is filed in; choosing another files it at once. */
function DomainFiling(props: { orders: FoldersQuery['dashboard']['orders']; folders: readonly Folder[]; report: Report }) {
  const [, file] = useMutation(FileDomainDocument);
  // A domain being filed shows its new folder until the service answers; a refusal puts it back.
  const [pending, setPending] = useState<Readonly<Record<string, string>>>({});
  // Fresh data from the service replaces every shown-while-waiting choice.
  useEffect(() => setPending({}), [props.orders]);
  const rows = props.orders.flatMap((o) => o.domains.map((d) => ({ ...d, reference: o.reference })));
  async function change(domain: string, value: string) {
    const workspaceId = value === '' ? null : Number(value);
    setPending((p) => ({ ...p, [domain]: value }));
    const answer = await file({ domain, input: { workspaceId } });
    if (answer.error || !answer.data) {
      setPending(({ [domain]: _refused, ...rest }) => rest);
      return props.report(false, errorSentence(answer.error) ?? 'The domain was not filed.');
    }
    const filed = answer.data.fileDomain;
    props.report(true, filed.workspaceName ? `${filed.domain} filed in "${filed.workspaceName}".` : `${filed.domain} is now unfiled.`);
  }
  return (
    <>
      <h2 id="filing">File domains</h2>
      {rows.length === 0 ? (
        <p>No domains yet; they appear here once an order is placed.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="filing">
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col">Folder</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.domain}>
                  <td className="domain-cell">
                    {d.domain}
                    <div className="hint">Order {d.reference}</div>
                  </td>
                  <td>
                    <label className="sr-only" htmlFor={`file-${d.domain}`}>
                      Folder for {d.domain}
                    </label>
                    <select
                      className="filing-select"
                      id={`file-${d.domain}`}
                      value={pending[d.domain] ?? (d.workspaceId == null ? '' : String(d.workspaceId))}
                      onChange={(e) => void change(d.domain, e.target.value)}
                    >
                      <option value="">Unfiled</option>
                      {props.folders.map((f) => (
                        <option key={f.workspaceId} value={String(f.workspaceId)}>
                          {f.name}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
