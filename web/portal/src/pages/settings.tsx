import { Page } from '../ui/page';
import { AlertRecipientsSection } from './settings-alerts';
import { AlertThresholdSection } from './settings-alert-threshold';
import { WebhooksSection } from './settings-webhooks';
import { DnsConnectionsSection } from './settings-dns';
import { ApiKeysSection } from './settings-keys';
import { ConnectedAssistantsSection } from './settings-assistants';
import { PeopleSection } from './settings-people';
import { PasswordSection } from './settings-password';

/** Settings: the account's API keys, the person's connected assistants, its people and invitations, alert addresses and the DMARC alert threshold, and the person's own password. */
export function SettingsPage() {
  return (
    <Page title="Settings">
      <ApiKeysSection />
      <ConnectedAssistantsSection />
      <PeopleSection />
      <AlertRecipientsSection />
      <AlertThresholdSection />
      <WebhooksSection />
      <DnsConnectionsSection />
      <PasswordSection />
    </Page>
  );
}
