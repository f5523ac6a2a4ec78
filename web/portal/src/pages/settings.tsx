import { Page } from '../ui/page';
import { AlertRecipientsSection } from './settings-alerts';
import { AlertThresholdSection } from './settings-alert-threshold';
import { WebhooksSection } from './settings-webhooks';
import { DnsConnectionsSection } from './settings-dns';
import { ApiKeysSection } from './settings-keys';
import { ConnectedAssistantsSection } from './settings-assistants';
import { PeopleSection } from './settings-people';
import { PasswordSection } from './settings-password';
import { SignOutEverywhereSection } from './settings-sign-out-everywhere';

/** Settings: the account's API keys, the person's connected assistants, its people and invitations, alert addresses and the DMARC alert threshold, the person's own password, and signing out everywhere. */
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
      <SignOutEverywhereSection />
    </Page>
  );
}
