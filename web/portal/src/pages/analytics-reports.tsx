import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AnalyticsPeriod, ReportDaysQuery } from '../gql/graphql';
import { QueryState } from '../ui/status';
import { SelectField } from '../ui/field';
import { formatDate, formatDateTime } from '../ui/format';
import { DayChart, daysBetween } from '../ui/day-chart';
import { DmarcRampPanel } from './analytics-dmarc-ramp';

const ReportDaysDocument = graphql(`
  query ReportDays($period: AnalyticsPeriod) {
    reportDays(period: $period) {
      from
      to
      domains { domain days { day messages passed passRate } }
    }
  }
`);

const DomainSourcesDocument = graphql(`
  query PortalDomainSources($domain: String!, $period: AnalyticsPeriod) {
    domainSources(domain: $domain, period: $period) {
      sources { sourceIp ptr messages passed passRate dkimAligned spfAligned reporters firstDay lastDay }
    }
  }
`);

const LatestReportsDocument = graphql(`
  query LatestReports($domain: String) {
    reports(limit: 10, domain: $domain) {
      data { id kind orgName reportId begin end messages passed passRate receivedVia receivedAt }
    }
  }
`);

type DomainDays = ReportDaysQuery['reportDays']['domains'][number];

export const NO_REPORTS_YET = 'no reports yet';
const count = new Intl.NumberFormat('en-US');
const rate = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value.toFixed(1)}%`);

/**
 * What receivers' DMARC aggregate reports say about each domain over the period: a summary row per
 * domain, then for one chosen domain its volume and pass rate per day (charts), who sends as it
 * (sources) and its latest reports. A domain no report covers says "no reports yet", never 0.
 */
export function ReportsSection(props: { period: AnalyticsPeriod; periodLabel: string }) {
  const [result] = useQuery({ query: ReportDaysDocument, variables: { period: props.period } });
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <section className="card reports-card" aria-labelledby="reports-title">
      <h2 id="reports-title">DMARC reports</h2>
      <QueryState {...result}>
        {(data) => {
          const { domains, from, to } = data.reportDays;
          if (domains.length === 0) return <p>No domains yet; receivers' reports appear once an order's domains send mail.</p>;
          const reported = domains.filter((d) => d.days.length > 0);
          const domain = domains.find((d) => d.domain === chosen) ?? reported[0] ?? domains[0]!;
          return (
            <>
              <ReportSummaryTable domains={domains} />
              <SelectField
                label="Domain"
                value={domain.domain}
                onChange={(e) => setChosen(e.target.value)}
                options={domains.map((d) => ({ value: d.domain, label: d.days.length > 0 ? d.domain : `${d.domain} (${NO_REPORTS_YET})` }))}
              />
              {domain.days.length === 0 ? (
                <p className="no-reports" role="status">
                  {domain.domain}: {NO_REPORTS_YET} in {props.periodLabel.toLowerCase()}. Receivers send them daily once the domain's DMARC record names our
                  address.
                </p>
              ) : (
                <DomainReports key={domain.domain} days={domain} from={from} to={to} period={props.period} periodLabel={props.periodLabel} />
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

function ReportSummaryTable(props: { domains: readonly DomainDays[] }) {
  return (
    <div className="table-wrap">
      <table className="figures stack-on-phone">
        <caption className="figures-caption">Reported messages per domain</caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col">Messages reported</th>
            <th scope="col">Passed DMARC</th>
            <th scope="col">Days reported</th>
          </tr>
        </thead>
        <tbody>
          {props.domains.map((d) => {
            const messages = d.days.reduce((s, day) => s + day.messages, 0);
            const passed = d.days.reduce((s, day) => s + day.passed, 0);
            return (
              <tr key={d.domain}>
                <th scope="row">{d.domain}</th>
                {d.days.length === 0 ? (
                  <td colSpan={3} className="unwatched">
                    {NO_REPORTS_YET}
                  </td>
                ) : (
                  <>
                    <td className="num" data-label="Messages reported">
                      {count.format(messages)}
                    </td>
                    <td className="num" data-label="Passed DMARC">
                      {messages > 0 ? rate(Math.round((passed / messages) * 1000) / 10) : '—'}
                    </td>
                    <td className="num" data-label="Days reported">
                      {d.days.length}
                    </td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One domain with reports: its two charts, its sources and its latest reports. */
function DomainReports(props: { days: DomainDays; from: string; to: string; period: AnalyticsPeriod; periodLabel: string }) {
  const { domain } = props.days;
  const series = useMemo(() => {
    const days = daysBetween(props.from, props.to);
    const byDay = new Map(props.days.days.map((d) => [d.day, d]));
    return {
      days,
      messages: days.map((d) => byDay.get(d)?.messages ?? null),
      passRate: days.map((d) => byDay.get(d)?.passRate ?? null),
    };
  }, [props.days, props.from, props.to]);
  const spoken = (values: readonly (number | null)[], percent: boolean) =>
    series.days
      .map((d, i) => [d, values[i]] as const)
      .filter(([, v]) => v !== null && v !== undefined)
      .slice(-14)
      .map(([d, v]) => `${d} ${percent ? rate(v) : count.format(v ?? 0)}`)
      .join('; ');
  return (
    <>
      <div className="report-charts">
        <figure>
          <figcaption>Messages reported per day, {domain}</figcaption>
          <DayChart
            days={series.days}
            values={series.messages}
            label="Messages"
            summary={`Messages reported per day for ${domain}, ${props.periodLabel.toLowerCase()}: ${spoken(series.messages, false)}. Days without a report are gaps.`}
          />
        </figure>
        <figure>
          <figcaption>DMARC pass rate per day, {domain}</figcaption>
          <DayChart
            days={series.days}
            values={series.passRate}
            label="Pass rate"
            percent
            summary={`DMARC pass rate per day for ${domain}, ${props.periodLabel.toLowerCase()}: ${spoken(series.passRate, true)}. Days without a report are gaps.`}
          />
        </figure>
        <DmarcRampPanel domain={domain} />
      </div>
      <SourcesTable domain={domain} period={props.period} />
      <LatestReports domain={domain} />
    </>
  );
}

function SourcesTable(props: { domain: string; period: AnalyticsPeriod }) {
  const [result] = useQuery({ query: DomainSourcesDocument, variables: { domain: props.domain, period: props.period } });
  return (
    <QueryState {...result}>
      {(data) => (
        <div className="table-wrap">
          <table className="figures stack-on-phone">
            <caption className="figures-caption">Who sends as {props.domain}</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Name (PTR)</th>
                <th scope="col">Messages</th>
                <th scope="col">Passed DMARC</th>
                <th scope="col">DKIM aligned</th>
                <th scope="col">SPF aligned</th>
                <th scope="col">Reporters</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {data.domainSources.sources.map((s) => (
                <tr key={s.sourceIp}>
                  <th scope="row" className="source-ip">
                    {s.sourceIp}
                  </th>
                  <td data-label="Name (PTR)">{s.ptr ?? '—'}</td>
                  <td className="num" data-label="Messages">
                    {count.format(s.messages)}
                  </td>
                  <td className="num" data-label="Passed DMARC">
                    {rate(s.passRate)}
                  </td>
                  <td className="num" data-label="DKIM aligned">
                    {count.format(s.dkimAligned)}
                  </td>
                  <td className="num" data-label="SPF aligned">
                    {count.format(s.spfAligned)}
                  </td>
                  <td className="num" data-label="Reporters">
                    {s.reporters}
                  </td>
                  <td data-label="Last seen">{formatDate(`${s.lastDay}T12:00:00Z`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}

function LatestReports(props: { domain: string }) {
  const [result] = useQuery({ query: LatestReportsDocument, variables: { domain: props.domain } });
  return (
    <QueryState {...result}>
      {(data) => (
        <div className="table-wrap">
          <table className="figures stack-on-phone">
            <caption className="figures-caption">Latest reports for {props.domain}</caption>
            <thead>
              <tr>
                <th scope="col">Reporter</th>
                <th scope="col">Kind</th>
                <th scope="col">Period</th>
                <th scope="col">Messages or sessions</th>
                <th scope="col">Passed</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {data.reports.data.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{r.orgName}</th>
                  <td data-label="Kind">{r.kind === 'dmarc' ? 'DMARC' : 'TLS-RPT'}</td>
                  <td data-label="Period">
                    {formatDate(r.begin)} to {formatDate(r.end)}
                  </td>
                  <td className="num" data-label="Messages or sessions">
                    {count.format(r.messages)}
                  </td>
                  <td className="num" data-label="Passed">
                    {rate(r.passRate)}
                  </td>
                  <td data-label="Received">
                    {formatDateTime(r.receivedAt)} ({r.receivedVia === 'smtp' ? 'by mail' : 'uploaded'})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}
