import { EventEmitter } from 'node:events';
import type { VoiceView } from '../../../../preload/src/contract.js';
import type { VoiceChannelBook } from './voice-channel-book.js';
import type { PlayerVoice } from './player-voice.js';
import type { VoiceSettingsStore } from './voice-settings-store.js';
import { playerVoiceView } from './voice-view.js';

/**
 * What Companion shows of the player's voice and lets them change (the UI's voice panel, the
 * control API's `/v1/voice`): the view, mute and deafen through the voice settings (so
 * GET_VOICE_SETTINGS reports them and games hear VOICE_SETTINGS_UPDATE), and a `change` event
 * (once per turn of the event loop) whenever the view may have changed.
 */
export class VoicePanel extends EventEmitter<{ change: [] }> {
  private queued = false;

  constructor(
    private readonly store: VoiceSettingsStore,
    private readonly book: VoiceChannelBook,
    private readonly player: PlayerVoice,
  ) {
    super();
    book.on('change', this.changed);
    player.on('selected', this.changed);
    player.on('status', this.changed);
    store.on('change', this.changed);
  }

  view(): VoiceView {
    return playerVoiceView(this.player, this.book, this.store.settings);
  }

  /** The player mutes or deafens: a change of theirs (it ends a game's hold on the settings). */
  set(patch: { readonly mute?: boolean | undefined; readonly deaf?: boolean | undefined }): VoiceView {
    this.store.update({ ...(patch.mute === undefined ? {} : { mute: patch.mute }), ...(patch.deaf === undefined ? {} : { deaf: patch.deaf }) }, { kind: 'player' });
    return this.view();
  }

  dispose(): void {
    this.book.off('change', this.changed);
    this.player.off('selected', this.changed);
    this.player.off('status', this.changed);
    this.store.off('change', this.changed);
  }

  private readonly changed = (): void => {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.emit('change');
    });
  };
}
