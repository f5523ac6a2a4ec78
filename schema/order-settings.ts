import { builder } from './builder.js';
import { setMonitors, setSequencer, type OrderSettings } from '../resolvers/changes/order-settings.js';
import { SEQUENCERS, unknownSequencerError } from '../resolvers/changes/sequencers.js';
import type { WireField } from './wire-field-extension.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';

/** The sending tools an order connects to; REST and MCP take them in any case and refuse others with the list. */
export const SequencerEnum = builder.enumType('Sequencer', {
  description: `A sending tool an order's inboxes connect to: ${Object.keys(SEQUENCERS).join(', ')}; none disconnects.`,
  values: Object.fromEntries(Object.entries(SEQUENCERS).map(([name, label]) => [name, { value: name, description: label }])),
  extensions: { door: { wireValues: sameSpellings(Object.keys(SEQUENCERS)), refuseUnknown: unknownSequencerError } satisfies DoorEnum },
});

const OrderSettingsRef = builder.objectRef<OrderSettings>('OrderSettings').implement({
  fields: (t) => ({
    subscriptionId: t.exposeString('subscriptionId'),
    sequencer: t.field({ type: SequencerEnum, nullable: true, resolve: (o) => o.sequencer }),
    // The answer to setting the switches names them as the body does (MonitorsInput).
    monitorReconnection: t.exposeBoolean('monitorReconnection', { extensions: { wireName: 'reconnection' } satisfies WireField }),
    monitorDeliverability: t.exposeBoolean('monitorDeliverability', { extensions: { wireName: 'deliverability' } satisfies WireField }),
  }),
});

const SequencerInput = builder.inputType('SequencerInput', {
  fields: (t) => ({
    sequencer: t.field({ type: SequencerEnum, required: true, description: `One of ${Object.keys(SEQUENCERS).join(', ')} (any case on REST and MCP).` }),
  }),
});

const MonitorsInput = builder.inputType('MonitorsInput', {
  fields: (t) => ({
    reconnection: t.boolean({ required: false, description: 'Reconnect inboxes the sending tool drops.' }),
    deliverability: t.boolean({ required: false, description: 'Watch inbox placement and blacklists.' }),
  }),
});

builder.mutationField('setSequencer', (t) =>
  t.field({
    type: OrderSettingsRef,
    description: "Sets the sending tool the order's inboxes connect to.",
    authScopes: { write: true },
    args: { subscriptionId: t.arg.string({ required: true }), input: t.arg({ type: SequencerInput, required: true }) },
    resolve: (_root, args, ctx) => setSequencer(args.subscriptionId, args.input, ctx),
  }),
);

builder.mutationField('setMonitors', (t) =>
  t.field({
    type: OrderSettingsRef,
    description: 'Sets the reconnection and/or deliverability switch; a switch not sent is left as it is.',
    authScopes: { write: true },
    args: { subscriptionId: t.arg.string({ required: true }), input: t.arg({ type: MonitorsInput, required: true }) },
    resolve: (_root, args, ctx) => setMonitors(args.subscriptionId, args.input, ctx),
  }),
);
