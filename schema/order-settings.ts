import { builder } from './builder.js';
import { setMonitors, setSequencer, type OrderSettings } from '../resolvers/changes/order-settings.js';
import { SEQUENCERS } from '../resolvers/changes/sequencers.js';

const OrderSettingsRef = builder.objectRef<OrderSettings>('OrderSettings').implement({
  fields: (t) => ({
    subscriptionId: t.exposeString('subscriptionId'),
    sequencer: t.exposeString('sequencer', { nullable: true }),
    monitorReconnection: t.exposeBoolean('monitorReconnection'),
    monitorDeliverability: t.exposeBoolean('monitorDeliverability'),
  }),
});

const SequencerInput = builder.inputType('SequencerInput', {
  fields: (t) => ({ sequencer: t.string({ required: true, description: `One of ${Object.keys(SEQUENCERS).join(', ')} (any case).`, extensions: { jsonSchema: { enum: Object.keys(SEQUENCERS) } } }) }),
});

const MonitorsInput = builder.inputType('MonitorsInput', {
  fields: (t) => ({
    reconnection: t.boolean({ required: false, description: 'Reconnect inboxes the sending tool drops.' }),
    deliverability: t.boolean({ required: false, description: 'Watch inbox placement and blacklists.' }),
  }),
});

builder.mutationField('setSequencer', (t) => t.field({
  type: OrderSettingsRef,
  description: "Sets the sending tool the order's inboxes connect to.",
  authScopes: { write: true },
  args: { subscriptionId: t.arg.string({ required: true }), input: t.arg({ type: SequencerInput, required: true }) },
  resolve: (_root, args, ctx) => setSequencer(args.subscriptionId, args.input, ctx),
}));

builder.mutationField('setMonitors', (t) => t.field({
  type: OrderSettingsRef,
  description: 'Sets the reconnection and/or deliverability switch; a switch not sent is left as it is.',
  authScopes: { write: true },
  args: { subscriptionId: t.arg.string({ required: true }), input: t.arg({ type: MonitorsInput, required: true }) },
  resolve: (_root, args, ctx) => setMonitors(args.subscriptionId, args.input, ctx),
}));
