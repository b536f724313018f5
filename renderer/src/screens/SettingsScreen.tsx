import type { ReactNode } from 'react';
import { useApp } from '../store/react';
import { DoctorPanel } from './DoctorPanel';
import { AccountSettings } from './SettingsAccount';
import { PlatformSettings, TransportSettings } from './SettingsConnections';
import { ApplicationSettings, AuthorizationSettings } from './SettingsPreferences';
import { DetectionSettings } from './SettingsDetection';
import { PresenceSettings } from './SettingsPresence';

export function SettingsScreen(): ReactNode {
  const status = useApp((s) => s.data?.status);
  const settings = useApp((s) => s.data?.settings);
  if (status === undefined || settings === undefined) return null;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Account &amp; settings</h1>
      <AccountSettings user={status.account?.user ?? null} />
      <PlatformSettings status={status} />
      <TransportSettings status={status} />
      <PresenceSettings />
      <DetectionSettings />
      <DoctorPanel />
      <ApplicationSettings settings={settings} />
      <AuthorizationSettings settings={settings} />
    </section>
  );
}
