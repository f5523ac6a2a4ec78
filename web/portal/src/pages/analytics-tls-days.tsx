import { useMemo } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AnalyticsPeriod } from '../gql/graphql';
import { QueryState } from '../ui/status';
import { DayChart, daysBetween } from '../ui/day-chart';

const TlsReportDaysDocument = graphql(`
  query PortalTlsReportDays($period: AnalyticsPeriod) {
    tlsReportDays(period: $period) {
      from
      to
      domains { domain days { day successfulSessions failedSessions successRate } }
    }
  }
`);

const count = new Intl.NumberFormat('en-US');

/**
 * The domain's TLS-RPT figures per day beside its DMARC charts: failed TLS sessions per day (senders
 * that could not set up TLS to its mail servers as its MTA-STS policy requires). A day no report
 * covers is a gap; a domain with no TLS report in the period says so.
 */
export function TlsDaysChart(props: { domain: string; period: AnalyticsPeriod; periodLabel: string }) {
  const [result] = useQuery({ query: TlsReportDaysDocument, variables: { period: props.period } });
  return <QueryState {...result}>{(data) => <TlsDaysFigure domain={props.domain} periodLabel={props.periodLabel} {...data.tlsReportDays} />}</QueryState>;
}

function TlsDaysFigure(props: {
  domain: string;
  periodLabel: string;
  from: string;
  to: string;
  domains: readonly { domain: string; days: readonly { day: string; successfulSessions: number; failedSessions: number; successRate?: number | null }[] }[];
}) {
  const mine = props.domains.find((d) => d.domain === props.domain);
  const series = useMemo(() => {
    const days = daysBetween(props.from, props.to);
    const byDay = new Map((mine?.days ?? []).map((d) => [d.day, d]));
    return { days, failed: days.map((d) => byDay.get(d)?.failedSessions ?? null) };
  }, [mine, props.from, props.to]);
  if (!mine || mine.days.length === 0)
    return (
      <p className="no-reports" role="status">
        {props.domain}: no TLS reports in {props.periodLabel.toLowerCase()}. Receivers send them once the domain's TLS-RPT record names our address.
      </p>
    );
  const spoken = mine.days
    .slice(-14)
    .map((d) => `${d.day} ${count.format(d.failedSessions)} failed of ${count.format(d.successfulSessions + d.failedSessions)}`)
    .join('; ');
  return (
    <figure>
      <figcaption>Failed TLS sessions per day, {props.domain}</figcaption>
      <DayChart
        days={series.days}
        values={series.failed}
        label="Failed sessions"
        summary={`Failed TLS sessions per day for ${props.domain}, ${props.periodLabel.toLowerCase()}: ${spoken}. Days without a report are gaps.`}
      />
    </figure>
  );
}
