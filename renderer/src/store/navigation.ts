import type { StateCreator } from 'zustand/vanilla';
import type { CompanionBridge, DeviceCodePreviewView, DeviceScreenView, OpenViewPush } from '../../../preload/src/contract';

/** The window's screens (the nav's buttons), in order. */
export const SCREEN_IDS = ['games', 'friends', 'inspector', 'apps', 'settings'] as const;
export type ScreenId = (typeof SCREEN_IDS)[number];

/** The screen named by the location hash (`#inspector`), Games by default. */
export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '');
  return SCREEN_IDS.find((screen) => screen === id) ?? 'games';
}

/** A message to bring into view in a conversation (a game asked for it); `at` tells two requests for the same message apart. */
export interface MessageFocus {
  readonly userId: string;
  readonly messageId: string;
  readonly at: number;
}

/** The "Link a device" screen: the code to enter, and the game's opening it answers to (null: the player opened it). */
export interface DeviceLinkState {
  readonly screenId: string | null;
  readonly userCode: string;
  /** The application the game said the code is for (the preview tells the platform's answer). */
  readonly applicationId: string | null;
}

/**
 * Where the window is: its screen, the conversations open on the Friends screen, the app picked
 * out on Authorized apps, the "Link a device" screen. The player moves with the nav and the rows'
 * buttons; a game moves it through `companion:open-view` (`openView`).
 */
export interface NavigationSlice {
  readonly screen: ScreenId;
  /** Friends whose conversation is open on the Friends screen. */
  readonly openConversations: readonly string[];
  readonly messageFocus: MessageFocus | null;
  /** The application a game asked Companion to show on Authorized apps. */
  readonly highlightedApplicationId: string | null;
  readonly deviceLink: DeviceLinkState | null;
  /** The voice channel a game asked Companion to show (SELECT_VOICE_CHANNEL `navigate`); `at` tells two requests apart. */
  readonly voiceFocus: { readonly channelId: string; readonly at: number } | null;
  go(screen: ScreenId): void;
  /** Opens (`open`) or closes the conversation with a friend. */
  setConversationOpen(userId: string, open: boolean): void;
  /** The player opens "Link a device" themselves (Authorized apps). */
  openDeviceLink(): void;
  /** The "Link a device" screen closes (closed, approved or denied): the game that opened it is told. */
  closeDeviceLink(): void;
  /** What a device flow's code asks (rejects with the host's error: an unknown or expired code, signed out). */
  previewDeviceCode(userCode: string): Promise<DeviceCodePreviewView>;
  /** Approves or denies the code with the player's account (rejects as previewDeviceCode). */
  decideDeviceCode(userCode: string, authorize: boolean): Promise<{ approved: boolean }>;
  /** A game asked Companion to show one of its views. */
  openView(push: OpenViewPush): void;
  /** The game's screen a snapshot says is open (null: none): shown if it is not, closed if the game's shown here is gone. */
  followDeviceScreen(screen: DeviceScreenView | null): void;
}

export const createNavigationSlice =
  <S extends NavigationSlice>(bridge: CompanionBridge, initialScreen: ScreenId): StateCreator<S, [], [], NavigationSlice> =>
  (set, get) => {
    const put = (patch: Partial<NavigationSlice>): void => set(patch as unknown as Partial<S>);
    const tellClosed = (screenId: string | null): void => {
      // The host tells the game; a failure (the host is gone) leaves nothing to tell.
      if (screenId !== null) void bridge.invoke('companion:close-device-screen', screenId).catch(() => undefined);
    };
    const navigation: NavigationSlice = {
      screen: initialScreen,
      openConversations: [],
      messageFocus: null,
      highlightedApplicationId: null,
      deviceLink: null,
      voiceFocus: null,
      go(screen) {
        put({ screen });
      },
      setConversationOpen(userId, open) {
        const list = get().openConversations;
        if (open === list.includes(userId)) return;
        put({ openConversations: open ? [...list, userId] : list.filter((id) => id !== userId) });
      },
      openDeviceLink() {
        if (get().deviceLink === null) put({ deviceLink: { screenId: null, userCode: '', applicationId: null } });
      },
      closeDeviceLink() {
        const link = get().deviceLink;
        if (link === null) return;
        put({ deviceLink: null });
        tellClosed(link.screenId);
      },
      previewDeviceCode: (userCode) => bridge.invoke('companion:preview-device-code', userCode),
      decideDeviceCode: (userCode, authorize) => bridge.invoke('companion:decide-device-code', userCode, authorize),
      followDeviceScreen(screen) {
        const shown = get().deviceLink;
        if (screen !== null && shown?.screenId !== screen.screen_id) put({ deviceLink: { screenId: screen.screen_id, userCode: screen.user_code, applicationId: screen.application_id } });
        else if (screen === null && shown !== null && shown.screenId !== null) put({ deviceLink: null });
      },
      openView(push) {
        switch (push.view) {
          case 'authorized-apps':
            put({ screen: 'apps', highlightedApplicationId: push.application_id });
            return;
          case 'conversation': {
            const list = get().openConversations;
            put({
              screen: 'friends',
              openConversations: list.includes(push.user_id) ? list : [...list, push.user_id],
              messageFocus: { userId: push.user_id, messageId: push.message_id, at: Date.now() },
            });
            return;
          }
          case 'authorize-device':
            // It replaces whatever code entry was open (the host told a game whose screen gave way).
            put({ screen: 'apps', deviceLink: { screenId: push.screen_id, userCode: push.user_code, applicationId: push.application_id } });
            return;
          case 'close-authorize-device':
            if (get().deviceLink?.screenId === push.screen_id) put({ deviceLink: null });
            return;
          case 'voice-channel':
            // The voice panel is on every screen: it is brought into view (VoicePanel follows voiceFocus).
            put({ voiceFocus: { channelId: push.channel_id, at: Date.now() } });
            return;
        }
      },
    };
    return navigation;
  };
