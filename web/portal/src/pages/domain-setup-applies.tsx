import { useEffect, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import type { DomainSetupAppliesQuery, RevertDomainSetupApplyMutation } from '../gql/graphql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { ShowMore, usePagedQuery } from '../ui/paged-query';
import { formatDateTime } from '../ui/format';

const DomainSetupAppliesDocument = graphql(`
  query DomainSetupApplies($domain: String!, $first: Int, $after: String) {
    domainSetupApplies(domain: $domain, first: $first, after: $after) {
      nodes {
        applyId kind revertsApplyId appliedAt connectionId revertedAt
        changes { name type replaced { type value priority ttl } added { type value priority ttl } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

const RevertDomainSetupApplyDocument = graphql(`
  mutation RevertDomainSetupApply($domain: String!, $applyId: Int!, $dryRun: Boolean!) {
    revertDomainSetupApply(domain: $domain, applyId: $applyId, dryRun: $dryRun) {
      applyId dryRun
      changes { name type replaced { type value priority ttl } added { type value priority ttl } }
    }
  }
`);

type Apply = DomainSetupAppliesQuery['domainSetupApplies']['nodes'][number];
type Change = RevertDomainSetupApplyMutation['revertDomainSetupApply']['changes'][number];
type SetRecord = Change['added'][number];

function recordWords(r: SetRecord): string {
  return `${r.type === 'MX' && r.priority !== null && r.priority !== undefined ? `${r.priority} ` : ''}${r.value} (TTL ${r.ttl})`;
}

/** One RRset's change in words: what goes and what comes. */
function changeWords(change: Change, verbs: { remove: string; add: string }): string {
  const parts = [];
  if (change.replaced.length > 0) parts.push(`${verbs.remove} ${change.replaced.map(recordWords).join(', ')}`);
  if (change.added.length > 0) parts.push(`${verbs.add} ${change.added.map(recordWords).join(', ')}`);
  return `${change.type} at ${change.name}: ${parts.join('; ')}`;
}

/**
 * The domain's publishes, newest first, each with what it changed and an "Undo this publish" button:
 * a dry run first shows what would be put back, nothing is written until it is confirmed, and a zone
 * changed since the publish is refused with the service's sentence naming what changed.
 */
export function PublishHistory(props: { domain: string; refreshKey: number; onReverted: () => void }) {
  const { first, reexecute, pages, hasNextPage, loadMore, loading, error } = usePagedQuery({
    query: DomainSetupAppliesDocument,
    variables: { domain: props.domain, first: 10 },
    pageInfo: (data) => data.domainSetupApplies.pageInfo,
    requestPolicy: 'cache-and-network',
  });
  const { refreshKey } = props;
  useEffect(() => {
    if (refreshKey > 0) reexecute({ requestPolicy: 'network-only' });
  }, [refreshKey, reexecute]);
  const [plan, setPlan] = useState<{ applyId: number; changes: readonly Change[] } | null>(null);
  const [done, setDone] = useState<number | null>(null);
  const [failure, setFailure] = useState<{ applyId: number; message: string } | null>(null);
  const [running, revert] = useMutation(RevertDomainSetupApplyDocument);

  const run = async (applyId: number, dryRun: boolean) => {
    setFailure(null);
    setDone(null);
    const answer = await revert({ domain: props.domain, applyId, dryRun });
    const reverted = answer.data?.revertDomainSetupApply;
    if (!reverted) {
      setPlan(null);
      setFailure({ applyId, message: errorSentence(answer.error) ?? 'Nothing was undone; try again.' });
      return;
    }
    if (dryRun) {
      setPlan({ applyId, changes: reverted.changes });
      return;
    }
    setPlan(null);
    setDone(applyId);
    reexecute({ requestPolicy: 'network-only' });
    props.onReverted();
  };

  const applies = pages.flatMap((page) => page.domainSetupApplies.nodes).filter((a) => a.kind === 'apply');
  return (
    <section className="card card-titled" aria-labelledby="applies-heading">
      <h2 id="applies-heading">Publishes</h2>
      <QueryState {...first}>
        {() =>
          applies.length === 0 ? (
            <p>Nothing has been published for {props.domain} yet. Each publish is listed here, and can be undone.</p>
          ) : (
            <>
              <p>
                Each publish we made for {props.domain}, newest first. Undoing one puts back exactly the records it replaced, with their TTLs, and removes the
                ones it added; if the records were changed since, nothing is undone and we say what changed.
              </p>
              {done !== null ? (
                <Notice tone="ok">The publish was undone: the records are back as they were before it. Checking the records again.</Notice>
              ) : null}
              <ol className="setup-applies">
                {applies.map((a) => (
                  <ApplyItem
                    key={a.applyId}
                    apply={a}
                    plan={plan?.applyId === a.applyId ? plan.changes : null}
                    failure={failure?.applyId === a.applyId ? failure.message : null}
                    busy={running.fetching}
                    onUndo={() => void run(a.applyId, true)}
                    onConfirm={() => void run(a.applyId, false)}
                    onCancel={() => setPlan(null)}
                  />
                ))}
              </ol>
              <ShowMore label="Show older publishes" hasNextPage={hasNextPage} loading={loading} error={error} onClick={() => void loadMore()} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function ApplyItem(props: {
  apply: Apply;
  plan: readonly Change[] | null;
  failure: string | null;
  busy: boolean;
  onUndo: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { apply } = props;
  const label = `Publish of ${formatDateTime(apply.appliedAt)}`;
  return (
    <li className="setup-apply" data-apply-id={apply.applyId} aria-label={label}>
      <h3>
        {label} <span className="hint">through connection {apply.connectionId}</span>
      </h3>
      <ul>
        {apply.changes.map((c) => (
          <li key={`${c.type}-${c.name}`}>{changeWords(c, { remove: 'replaced', add: 'added' })}</li>
        ))}
      </ul>
      {apply.revertedAt ? (
        <p className="hint">Undone {formatDateTime(apply.revertedAt)}.</p>
      ) : props.plan ? (
        <div role="region" aria-label="Changes to undo">
          <p>Nothing has been changed yet. Undoing this publish makes these changes:</p>
          <ol className="publish-changes" data-testid="revert-changes">
            {props.plan.map((c) => (
              <li key={`${c.type}-${c.name}`}>{changeWords(c, { remove: 'remove', add: 'put back' })}</li>
            ))}
          </ol>
          <ConfirmButtons confirmLabel="Yes, undo it" busy={props.busy} onConfirm={props.onConfirm} onCancel={props.onCancel} />
        </div>
      ) : (
        <button type="button" className="small" aria-label={`Undo this publish (${label})`} disabled={props.busy} onClick={props.onUndo}>
          Undo this publish
        </button>
      )}
      <ErrorBanner message={props.failure} />
    </li>
  );
}
