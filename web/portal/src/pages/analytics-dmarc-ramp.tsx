import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { DmarcRampStep } from '../gql/graphql';
import { errorSentence } from '../api';
import { ErrorBanner, Notice, QueryState } from '../ui/status';
import { ConfirmButtons } from '../ui/confirm-buttons';
import { formatDateTime } from '../ui/format';

const DmarcRampDocument = graphql(`
  query PortalDmarcRamp($domain: String!) {
    dmarcRamp(domain: $domain) {
      step record nextStep ready blockedBy connectionId autoAdvance
      window { from days messages passRate }
      failingSources { sourceIp ptr service failed ownSender }
      revertOffered { applyId reason }
      timeline { id kind fromStep toStep automatic reason at }
    }
  }
`);

const AdvanceDmarcRampDocument = graphql(`
  mutation PortalAdvanceDmarcRamp($domain: String!, $connectionId: Int!, $dryRun: Boolean!) {
    advanceDmarcRamp(domain: $domain, connectionId: $connectionId, dryRun: $dryRun) {
      dryRun toStep recordBefore recordAfter applyId
    }
  }
`);

const UndoRampStepDocument = graphql(`
  mutation PortalUndoRampStep($domain: String!, $applyId: Int!) {
    revertDomainSetupApply(domain: $domain, applyId: $applyId, dryRun: false) { applyId }
  }
`);

/** The steps in people's words. */
export const STEP_WORDS: Record<DmarcRampStep, string> = {
  none: 'Monitoring only (p=none)',
  quarantine_25: 'A quarter of failing mail to spam (p=quarantine; pct=25)',
  quarantine: 'Failing mail to spam (p=quarantine)',
  reject: 'Failing mail refused (p=reject)',
};

/**
 * The domain's DMARC ramp beside its pass-rate chart: the policy now, whether the next step is safe
 * and what blocks it, the failing sources, and the timeline of steps. "Advance" shows the record it
 * would publish first (a dry run) and publishes only once confirmed; an offered undo reverts the
 * step's publish through the journal.
 */
export function DmarcRampPanel(props: { domain: string }) {
  const [result, reexecute] = useQuery({ query: DmarcRampDocument, variables: { domain: props.domain }, requestPolicy: 'cache-and-network' });
  const [advancing, advance] = useMutation(AdvanceDmarcRampDocument);
  const [undoing, undo] = useMutation(UndoRampStepDocument);
  const [preview, setPreview] = useState<{ toStep: DmarcRampStep; recordAfter: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const runAdvance = async (connectionId: number, dryRun: boolean) => {
    setFailure(null);
    setMessage(null);
    const answer = await advance({ domain: props.domain, connectionId, dryRun });
    const done = answer.data?.advanceDmarcRamp;
    if (!done) {
      setPreview(null);
      setFailure(errorSentence(answer.error) ?? 'Nothing was changed; try again.');
      return;
    }
    if (dryRun) return setPreview({ toStep: done.toStep, recordAfter: done.recordAfter });
    setPreview(null);
    setMessage(`Published: ${STEP_WORDS[done.toStep]}. It shows in the timeline below, and can be undone there.`);
    reexecute({ requestPolicy: 'network-only' });
  };
  const runUndo = async (applyId: number) => {
    setFailure(null);
    const answer = await undo({ domain: props.domain, applyId });
    if (!answer.data) return setFailure(errorSentence(answer.error) ?? 'Nothing was undone; try again.');
    setMessage('The last step was undone: the DMARC record is back as it was.');
    reexecute({ requestPolicy: 'network-only' });
  };

  return (
    <section className="dmarc-ramp" aria-labelledby="ramp-title">
      <h3 id="ramp-title">DMARC ramp, {props.domain}</h3>
      <QueryState {...result}>
        {(data) => {
          const ramp = data.dmarcRamp;
          return (
            <>
              <p>
                Policy now: <strong>{ramp.step ? STEP_WORDS[ramp.step] : 'not known (the record could not be read)'}</strong>
                {ramp.nextStep ? (
                  <>
                    . Next: {STEP_WORDS[ramp.nextStep]}, {ramp.ready ? 'ready now' : 'not yet'}.
                  </>
                ) : (
                  '.'
                )}
              </p>
              {ramp.blockedBy ? <p className="ramp-blocked">{ramp.blockedBy}</p> : null}
              <p className="ramp-window">
                Judged on {ramp.window.days} day{ramp.window.days === 1 ? '' : 's'} of reports since {ramp.window.from}
                {ramp.window.passRate === null ? '' : `, ${ramp.window.passRate.toFixed(1)}% passing`}.
                {ramp.autoAdvance ? ' The ramp advances on its own (Settings).' : ''}
              </p>
              {message ? <Notice tone="ok">{message}</Notice> : null}
              <ErrorBanner message={failure} />
              {ramp.revertOffered ? (
                <Notice tone="warn">
                  {ramp.revertOffered.reason}{' '}
                  <button type="button" className="small" disabled={undoing.fetching} onClick={() => void runUndo(ramp.revertOffered!.applyId)}>
                    Undo the last step
                  </button>
                </Notice>
              ) : null}
              {ramp.ready && ramp.nextStep && ramp.connectionId !== null ? (
                preview ? (
                  <div className="ramp-preview">
                    <p>
                      This record would be published at _dmarc.{props.domain}: <code>{preview.recordAfter}</code>
                    </p>
                    <ConfirmButtons
                      confirmLabel={`Publish: ${STEP_WORDS[preview.toStep]}`}
                      busy={advancing.fetching}
                      onConfirm={() => void runAdvance(ramp.connectionId!, false)}
                      onCancel={() => setPreview(null)}
                    />
                  </div>
                ) : (
                  <button type="button" disabled={advancing.fetching} onClick={() => void runAdvance(ramp.connectionId!, true)}>
                    Advance to the next step
                  </button>
                )
              ) : null}
              {ramp.ready && ramp.connectionId === null ? (
                <p>Publish the domain's setup through a DNS connection first (its setup page); the ramp publishes through the same connection.</p>
              ) : null}
              {ramp.failingSources.length > 0 ? (
                <ul className="ramp-sources" aria-label={`Sources failing DMARC for ${props.domain}`}>
                  {ramp.failingSources.slice(0, 10).map((s) => (
                    <li key={s.sourceIp}>
                      {s.sourceIp}
                      {s.ptr ? ` (${s.ptr}${s.service ? `, ${s.service}` : ''})` : ''}: {s.failed} failed
                      {s.ownSender === true ? ', one of your senders' : s.ownSender === null ? ', not known whether yours' : ''}
                    </li>
                  ))}
                </ul>
              ) : null}
              {ramp.timeline.length === 0 ? (
                <p>No step taken yet.</p>
              ) : (
                <ol className="ramp-timeline" aria-label={`DMARC ramp timeline of ${props.domain}`}>
                  {ramp.timeline.map((e) => (
                    <li key={e.id}>
                      <time dateTime={String(e.at)}>{formatDateTime(String(e.at))}</time>: {e.kind === 'advanced' ? 'advanced' : 'undone'} from{' '}
                      {STEP_WORDS[e.fromStep]} to {STEP_WORDS[e.toStep]}
                      {e.automatic ? ' (automatic)' : ''}. {e.reason}
                    </li>
                  ))}
                </ol>
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
