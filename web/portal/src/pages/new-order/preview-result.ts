import type { CombinedError } from 'urql';
import { errorCode, errorSentence, isRecord } from '../../api';
import type { OrderPreviewQuery } from '../../gql/graphql';

export type Preview = OrderPreviewQuery['previewOrder'];

export interface PreviewIssue {
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  /** domain_not_verified: the TXT record that proves the domain is the account's. */
  readonly record: { readonly name: string; readonly type: string; readonly value: string } | null;
}

export interface PreviewProblems {
  readonly domain: string;
  /** Position in the order as sent (OrderInput.domains). */
  readonly index: number;
  readonly issues: readonly PreviewIssue[];
}

/** What the preview panel shows: the priced order, or why the service refused it. */
export type PreviewState =
  | { readonly kind: 'empty' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'priced'; readonly preview: Preview }
  | { readonly kind: 'refused'; readonly code: string | null; readonly detail: string; readonly problems: readonly PreviewProblems[] };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A refused order is a 400 whose `problems` (every issue, by domain) travel in the GraphQL error's
 * extensions, beside the `detail` sentence; warnings of an accepted order come in the answer itself.
 */
export function problemsOf(error: CombinedError): PreviewProblems[] {
  const raw = error.graphQLErrors[0]?.extensions?.problems;
  if (!Array.isArray(raw)) return [];
  return raw.map((group: Record<string, unknown>) => ({
    domain: text(group.domain),
    index: typeof group.index === 'number' ? group.index : 0,
    issues: (Array.isArray(group.issues) ? group.issues : []).map((issue: Record<string, unknown>) => {
      const record = isRecord(issue.record) ? issue.record : undefined;
      return {
        severity: text(issue.severity),
        code: text(issue.code),
        message: text(issue.message),
        record: record ? { name: text(record.name), type: text(record.type), value: text(record.value) } : null,
      };
    }),
  }));
}

export function refusalOf(error: CombinedError): PreviewState {
  return { kind: 'refused', code: errorCode(error), detail: errorSentence(error) ?? 'The preview failed.', problems: problemsOf(error) };
}

/** A promotion code the service would not apply (refused, never ignored: SPEC 4.2 rule 4). */
export const isPromotionRefusal = (state: PreviewState): boolean => state.kind === 'refused' && (state.code ?? '').startsWith('promotion_code');
