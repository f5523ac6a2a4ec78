import { builder } from './builder.js';
import { getAlertSettings, setAlertSettings, type AlertSettings } from '../resolvers/alerts/alert-settings.js';
import { sameSpellings, type DoorEnum } from './door-enum-extension.js';

const SETTING_SOURCES = ['account', 'default'] as const;

const AlertSettingSourceEnum = builder.enumType('AlertSettingSource', {
  description: 'account: your account set it; default: the service-wide default applies.',
  values: Object.fromEntries(SETTING_SOURCES.map((s) => [s, { value: s }])),
  extensions: { door: { wireValues: sameSpellings(SETTING_SOURCES) } satisfies DoorEnum },
});

const AlertSettingsRef = builder.objectRef<AlertSettings>('AlertSettings').implement({
  description: 'When report alerts are raised (docs/reports.md, "Alerts").',
  fields: (t) => ({
    dmarcPassRateThreshold: t.exposeFloat('dmarcPassRateThreshold', {
      description: "dmarc.failures is raised when a DMARC report's pass rate (percent) is under this.",
    }),
    dmarcPassRateThresholdSource: t.field({ type: AlertSettingSourceEnum, resolve: (s) => s.dmarcPassRateThresholdSource }),
    dmarcPassRateThresholdDefault: t.exposeFloat('dmarcPassRateThresholdDefault', { description: 'The threshold when your account sets none.' }),
    dmarcMinMessages: t.exposeInt('dmarcMinMessages', { description: 'A report counting fewer messages raises no pass-rate alert (fixed).' }),
  }),
});

const AlertSettingsInput = builder.inputType('AlertSettingsInput', {
  fields: (t) => ({
    dmarcPassRateThreshold: t.float({
      required: false,
      description: 'Percent, above 0 and at most 100 (one decimal kept); null or left out: back to the default.',
    }),
  }),
});

builder.queryField('alertSettings', (t) =>
  t.field({
    type: AlertSettingsRef,
    description: "Your account's report alert thresholds.",
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => getAlertSettings(ctx),
  }),
);

builder.mutationField('setAlertSettings', (t) =>
  t.field({
    type: AlertSettingsRef,
    description: "Replaces your account's report alert thresholds; the next stored report is judged by them.",
    authScopes: { write: true },
    args: { input: t.arg({ type: AlertSettingsInput, required: true }) },
    resolve: (_root, args, ctx) => setAlertSettings(args.input, ctx),
  }),
);
