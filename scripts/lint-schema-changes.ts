// The printed GraphQL schemas against the last released ones (schema/released/), with
// graphql-inspector (its core, the engine of its CLI): a breaking change (a field removed, a type
// changed, an argument made required) fails the lint unless schema/released/accepted-changes.json
// lists its path with a reason. Deprecate with @deprecated rather than remove (docs/api.md,
// "Changing the schema").
import { readFileSync } from 'node:fs';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

const pairs = [
  ['schema/released/account.graphql', 'schema.graphql'],
  ['schema/released/public.graphql', 'schema.public.graphql'],
] as const;

interface AcceptedChange {
  readonly path: string;
  readonly reason: string;
}

const accepted: readonly AcceptedChange[] = JSON.parse(readFileSync('schema/released/accepted-changes.json', 'utf8')).accepted;
const acceptedPaths = new Set(accepted.map((a) => a.path));

const problems: string[] = [];
for (const [released, current] of pairs) {
  const changes = await diff(buildSchema(readFileSync(released, 'utf8')), buildSchema(readFileSync(current, 'utf8')));
  for (const change of changes) {
    if (change.criticality.level !== CriticalityLevel.Breaking) continue;
    if (change.path !== undefined && acceptedPaths.has(change.path)) continue;
    problems.push(`${current} against ${released}: ${change.message} (path ${change.path ?? '?'})`);
  }
}
if (problems.length > 0) {
  process.stderr.write(
    `${problems.join('\n')}\nA breaking GraphQL change: keep the old field (mark it @deprecated) or, if the break is meant, list its path with a reason in schema/released/accepted-changes.json.\n`,
  );
  process.exit(1);
}
