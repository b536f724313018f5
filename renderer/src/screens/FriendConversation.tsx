import { useCallback, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { ConversationView, FriendView } from '../../../preload/src/contract';
import { displayName, formatDate, formatMessageTime, isoTime } from '../lib/format';
import { useFollowNewest } from '../lib/use-follow-newest';
import { useApp } from '../store/react';
import { useReadingConversation } from './use-reading-conversation';

/** The name of a game that sent a message: one the UI knows (running, authorized, a friend's), else "a game" (its id is a developer fact: data-application-id). */
function useGameName(): (applicationId: string) => string {
  const games = useApp((s) => s.data?.games);
  const grants = useApp((s) => s.data?.grants);
  const friends = useApp((s) => s.data?.friends);
  return (applicationId) =>
    games?.find((g) => g.client_id === applicationId)?.application_name ??
    grants?.find((g) => g.application.id === applicationId)?.application.name ??
    friends?.flatMap((f) => f.presence.activities).find((a) => a.application_id === applicationId)?.name ??
    'a game';
}

/**
 * The conversation with a friend, as the desktop client shows it: every message with its
 * author and time, those a game sent marked with the game; and a box to write back (it reaches
 * the friend, and their game when it reads their messages). The list opens at the newest message
 * and follows new ones unless the player scrolled up ("N new messages" then leads down); it is a
 * focusable log, so the keyboard reaches and scrolls it.
 */
export function FriendConversation({ friend, conversation }: { readonly friend: FriendView; readonly conversation: ConversationView | undefined }): ReactNode {
  const me = useApp((s) => s.data?.status.account?.user ?? null);
  const send = useApp((s) => s.sendDm);
  const busy = useApp((s) => s.busy.includes(`dm:${friend.user.id}`));
  const gameName = useGameName();
  const [text, setText] = useState('');
  const name = displayName(friend.user);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const content = text.trim();
    if (content === '') return;
    void send(friend.user.id, content).then((sent) => sent && setText(''));
  };
  const messages = useMemo(() => conversation?.messages ?? [], [conversation]);
  const ids = useMemo(() => messages.map((m) => m.id), [messages]);
  const mine = useCallback((id: string) => messages.find((m) => m.id === id)?.author_id === me?.id, [messages, me]);
  const follow = useFollowNewest(ids, mine);
  // Open and on screen: the player reads it (its unread count clears, arriving messages are not announced).
  useReadingConversation(friend.user.id, ids.at(-1) ?? null);
  // A game asked to show one message of it (OpenMessageInDiscord): brought into view and marked.
  const focus = useApp((s) => (s.messageFocus?.userId === friend.user.id ? s.messageFocus : null));
  const scrollRef = follow.ref;
  useEffect(() => {
    if (focus === null) return;
    const element = [...(scrollRef.current?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])].find((item) => item.dataset['messageId'] === focus.messageId);
    element?.scrollIntoView({ block: 'center' });
  }, [focus, scrollRef]);
  return (
    <section className="conversation" aria-label={`Messages with ${name}`} data-testid="conversation">
      {messages.length === 0 ? (
        <p className="muted">No messages with {name} yet.</p>
      ) : (
        <div className="dm-scroll">
          <div ref={follow.ref} className="dm-log" role="log" tabIndex={0} aria-label={`Conversation with ${name}`} onScroll={follow.onScroll} data-testid="dm-log">
            <ol className="dm-list">
              {messages.map((message) => (
                <li
                  key={message.id}
                  className={`${message.author_id === me?.id ? 'dm dm-mine' : 'dm'}${focus?.messageId === message.id ? ' dm-focused' : ''}`}
                  aria-current={focus?.messageId === message.id ? 'true' : undefined}
                  data-message-id={message.id}
                  data-focused={focus?.messageId === message.id ? 'true' : undefined}
                  data-testid="dm"
                >
                  <span className="dm-author">{message.author_id === me?.id ? 'You' : name}</span>
                  {message.application_id !== null && (
                    <span className="badge dm-game" data-testid="dm-game" data-application-id={message.application_id}>
                      via {message.application_name ?? gameName(message.application_id)}
                    </span>
                  )}{' '}
                  <time className="dm-time" dateTime={isoTime(message.at)} title={formatDate(message.at)}>
                    {formatMessageTime(message.at)}
                  </time>
                  {message.edited_at !== null && (
                    <span className="dm-time dm-edited" data-testid="dm-edited" title={`Edited ${formatDate(message.edited_at)}`}>
                      {' '}
                      (edited)
                    </span>
                  )}
                  <div className="dm-content" data-testid="dm-content">
                    {message.content}
                  </div>
                </li>
              ))}
            </ol>
          </div>
          {follow.unseen > 0 && (
            <button type="button" className="primary dm-new" onClick={follow.jumpToNewest} data-testid="dm-new">
              {follow.unseen} new {follow.unseen === 1 ? 'message' : 'messages'}
            </button>
          )}
        </div>
      )}
      <form className="inline-form dm-form" onSubmit={submit}>
        <label className="visually-hidden" htmlFor={`dm-${friend.user.id}`}>
          Message {name}
        </label>
        <input id={`dm-${friend.user.id}`} value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} placeholder={`Message ${name}`} data-testid="dm-input" />
        <button type="submit" className="primary" disabled={busy || text.trim() === ''} data-testid="dm-send">
          Send
        </button>
      </form>
    </section>
  );
}
