import type { ReactNode } from 'react';
import { identityColour } from '../../../common/src/identity-colour';
import type { UserView } from '../../../preload/src/contract';
import { displayName } from '../lib/format';
import { avatarUrl } from '../lib/images';
import { SafeImage } from './safe';

/** The first letter of the name a player sees (a surrogate pair kept whole). */
function initialOf(user: UserView): string {
  const first = Array.from(displayName(user).trim())[0];
  return first === undefined ? '?' : first.toUpperCase();
}

const STATUS_WORDS: Readonly<Record<string, string>> = { online: 'Online', idle: 'Idle', dnd: 'Do not disturb', offline: 'Offline' };

export function statusWord(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

/**
 * A user's avatar: their picture from the platform, or (none, or it cannot be shown) their
 * initial on a colour of their own, as the client's default avatars; their status as a dot on
 * the corner (its meaning is said in text next to it, the dot is decoration).
 */
export function Avatar({ user, status, size = 40 }: { readonly user: UserView; readonly status?: string; readonly size?: number }): ReactNode {
  const initial = <>{initialOf(user)}</>;
  return (
    <span className="avatar" style={{ width: size, height: size, background: identityColour(user.id), fontSize: size * 0.45 }} aria-hidden="true" data-testid="avatar">
      <SafeImage src={avatarUrl(user.id, user.avatar)} alt="" className="avatar-image" size={size} fallback={initial} />
      {status !== undefined && <span className={`avatar-status status-dot status-${/^[a-z]+$/.test(status) ? status : 'unknown'}`} />}
    </span>
  );
}
