import { useEffect, useRef, type ReactNode } from 'react';
import type { VoiceMemberView, VoiceView } from '../../../preload/src/contract';
import { Avatar } from '../components/Avatar';
import { Icon } from '../components/Icon';
import { displayName } from '../lib/format';
import { useApp } from '../store/react';

/** One person in the channel: their avatar, ringed while they speak, and their mute or deafen. */
function VoiceMember({ member }: { readonly member: VoiceMemberView }): ReactNode {
  const name = displayName(member.user);
  const state = member.self_deaf ? 'deafened' : member.self_mute ? 'muted' : null;
  return (
    <li className="voice-member" data-testid="voice-member" data-user-id={member.user.id} data-speaking={member.speaking ? 'true' : 'false'}>
      <span className={member.speaking ? 'voice-ring voice-ring-speaking' : 'voice-ring'} data-testid="voice-ring">
        <Avatar user={member.user} size={24} />
      </span>
      <span className="voice-member-name">
        {name}
        {member.me && <span className="voice-muted-text"> (you)</span>}
        {member.speaking && <span className="visually-hidden">, speaking</span>}
      </span>
      {state !== null && (
        <span className="voice-member-state" title={state === 'deafened' ? `${name} is deafened` : `${name} is muted`}>
          <Icon name={state === 'deafened' ? 'headphones-off' : 'mic-off'} />
          <span className="visually-hidden">{state}</span>
        </span>
      )}
    </li>
  );
}

/** Mute and deafen: the voice settings games read (GET_VOICE_SETTINGS) and are told of (VOICE_SETTINGS_UPDATE). */
function VoiceControls({ voice }: { readonly voice: VoiceView }): ReactNode {
  const setVoice = useApp((s) => s.setVoice);
  const busy = useApp((s) => s.busy.includes('voice'));
  return (
    <div className="voice-controls">
      <button type="button" className="icon-button" aria-label="Mute" aria-pressed={voice.mute} disabled={busy} onClick={() => void setVoice({ mute: !voice.mute })} data-testid="voice-mute">
        <Icon name={voice.mute ? 'mic-off' : 'mic'} />
      </button>
      <button type="button" className="icon-button" aria-label="Deafen" aria-pressed={voice.deaf} disabled={busy} onClick={() => void setVoice({ deaf: !voice.deaf })} data-testid="voice-deafen">
        <Icon name={voice.deaf ? 'headphones-off' : 'headphones'} />
      </button>
    </div>
  );
}

/**
 * The player's voice, on every screen: the server voice channel a game joined them to, who is in
 * it and who speaks (the ring), and mute and deafen. Companion's voice connection carries no
 * sound (it holds the state only), and the panel says so. A game's SELECT_VOICE_CHANNEL with
 * `navigate` brings the panel into view.
 */
export function VoicePanel(): ReactNode {
  const voice = useApp((s) => s.data?.voice ?? null);
  const focus = useApp((s) => s.voiceFocus);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focus === null) return;
    panel.current?.scrollIntoView({ block: 'nearest' });
    panel.current?.focus();
  }, [focus]);
  if (voice === null) return null;
  const channel = voice.channel;
  const name = channel === null ? null : (channel.name ?? `channel ${channel.id}`);
  return (
    <section className="voice-panel" aria-labelledby="voice-panel-heading" ref={panel} tabIndex={-1} data-testid="voice-panel" data-connection={voice.connection}>
      <h2 id="voice-panel-heading" className="voice-heading">
        {name === null ? 'Voice' : <span data-testid="voice-channel-name">{name}</span>}
      </h2>
      {channel === null ? (
        <p className="voice-muted-text" data-testid="voice-none">
          Not in a voice channel
        </p>
      ) : (
        <>
          <p className="voice-muted-text" data-testid="voice-audio-note">
            State only: no sound plays in Companion
          </p>
          <ul className="voice-members" aria-label={`In ${name ?? 'the channel'}`}>
            {voice.members.map((member) => (
              <VoiceMember key={member.user.id} member={member} />
            ))}
          </ul>
        </>
      )}
      <VoiceControls voice={voice} />
    </section>
  );
}
