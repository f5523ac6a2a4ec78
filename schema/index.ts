// Loads every type file, then prints the schema. Each file registers its own types and fields.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import { checksOnly } from './public-schema.js';
import './mutation.js';
import './scalars.js';
import './dashboard.js';
import './orders.js';
import './billing.js';
import './analytics.js';
import './workspaces.js';
import './requests.js';
import './referrals.js';
import './catalogue.js';
import './payment-method.js';
import './checks.js';
import './workspace-changes.js';
import './order-settings.js';
import './change-requests.js';
import './ordering.js';
import './card-setup.js';
import './webhooks.js';
import './alert-recipients.js';
import './alert-settings.js';
import './people.js';
import './connected-assistants.js';
import './domain-verification.js';
import './domain-setup.js';
import './dns-connections.js';
import './apply-domain-setup.js';
import './setup-applies.js';
import './mailboxes.js';
import './reports.js';
import './dmarc-ramp.js';

/** Fields in the order they are declared: the operation documents are printed from it (scripts/print-schema.ts). */
export const declaredSchema = builder.toSchema({ sortSchema: false });

/** The account listener's schema: every field, account and checks. */
export const schema = lexicographicSortSchema(declaredSchema);

/** The public listener's schema: the checks only (schema/public-schema.ts). */
export const publicSchema = lexicographicSortSchema(checksOnly(declaredSchema));
