// Loads every type file, then prints the schema. Each file registers its own types and fields.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
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

export const schema = lexicographicSortSchema(builder.toSchema());
