import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { DeviceCodePreviewView } from '../../../preload/src/contract';
import { SafeImage } from '../components/safe';
import { appNameOr } from '../lib/app-names';
import { appIconUrl } from '../lib/images';
import { playerErrorText } from '../lib/player-error';
import { errorText } from '../store/app-store';
import type { DeviceLinkState } from '../store/navigation';
import { useApp } from '../store/react';
import { useModalDialog } from './use-modal-dialog';

/** "Link a device", over whatever screen is shown while it is open (a game asked for it, or the player opened it on Authorized apps). */
export function DeviceLinkOverlay(): ReactNode {
  const link = useApp((s) => s.deviceLink);
  if (link === null) return null;
  // Keyed by the game's opening: a new code gets a fresh dialog.
  return <DeviceLinkDialog key={link.screenId ?? 'player'} link={link} />;
}

type Step = { readonly kind: 'enter' } | { readonly kind: 'checking' } | { readonly kind: 'preview'; readonly preview: DeviceCodePreviewView } | { readonly kind: 'deciding'; readonly preview: DeviceCodePreviewView };

/**
 * The device authorization flow's page on Companion (RFC 8628's verification page): a console or
 * TV game shows a short code; the player enters it here (or the game filled it in), sees which
 * application asks and what it would be allowed, and approves or denies it with their account.
 * Closing it (×, Escape, Approve, Deny) tells the game that opened it.
 */
function DeviceLinkDialog({ link }: { readonly link: DeviceLinkState }): ReactNode {
  const close = useApp((s) => s.closeDeviceLink);
  const user = useApp((s) => s.data?.status.account?.user ?? null);
  const gameName = useApp((s) => (link.applicationId === null ? null : appNameOr(s.data, link.applicationId, 'the game')));
  const { code, setCode, step, setStep, error, check, answer } = useDeviceLinkSteps(link, close);
  const { dialogRef, onKeyDown } = useModalDialog(close);
  const titleId = useId();
  const inputId = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (code.trim() !== '') void check(code);
  };

  const shown = step.kind === 'preview' || step.kind === 'deciding' ? step.preview : null;
  return (
    <div className="overlay">
      <div ref={dialogRef} className="consent" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKeyDown} data-testid="device-link">
        <button type="button" className="close" aria-label="Close (links nothing)" title="Close" onClick={close} data-testid="device-link-close">
          ×
        </button>
        <h2 id={titleId}>Link a device</h2>
        <p>
          {gameName === null ? 'A game on a console or TV shows a code.' : `${gameName} shows a code on its screen.`} Enter it here to let that device use your account
          {user === null ? '' : ` (${user.global_name ?? user.username})`}.
        </p>
        <form className="device-link-form" onSubmit={submit}>
          <label htmlFor={inputId}>
            Code
            <input
              id={inputId}
              className="device-link-code"
              value={code}
              maxLength={32}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => {
                setCode(event.target.value);
                if (shown !== null) setStep({ kind: 'enter' });
              }}
              placeholder="XXXX-XXXX"
              data-testid="device-link-code"
            />
          </label>
          {shown === null && (
            <button type="submit" className="primary" disabled={code.trim() === '' || step.kind === 'checking'} data-testid="device-link-check">
              {step.kind === 'checking' ? 'Checking…' : 'Check code'}
            </button>
          )}
        </form>
        {error !== null && (
          <p className="device-link-error" role="alert" data-testid="device-link-error">
            {error}
          </p>
        )}
        {shown !== null && <DevicePreview preview={shown} expectedApplicationId={link.applicationId} />}
        {shown !== null && (
          <div className="consent-actions">
            <button type="button" className="secondary" disabled={step.kind === 'deciding'} onClick={() => void answer(shown, false)} data-testid="device-link-deny">
              Deny
            </button>
            <button type="button" className="primary" disabled={step.kind === 'deciding'} onClick={() => void answer(shown, true)} data-testid="device-link-approve">
              Approve
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

/** The dialog's steps: the code checked (what it asks), then answered; errors in the player's words. */
function useDeviceLinkSteps(link: DeviceLinkState, close: () => void) {
  const preview = useApp((s) => s.previewDeviceCode);
  const decide = useApp((s) => s.decideDeviceCode);
  const notify = useApp((s) => s.notify);
  const [code, setCode] = useState(link.userCode);
  const [step, setStep] = useState<Step>({ kind: 'enter' });
  const [error, setError] = useState<string | null>(null);
  const check = async (typed: string): Promise<void> => {
    setError(null);
    setStep({ kind: 'checking' });
    try {
      setStep({ kind: 'preview', preview: await preview(typed.trim()) });
    } catch (failure) {
      setError(playerErrorText(errorText(failure)));
      setStep({ kind: 'enter' });
    }
  };
  // The game gave its code: what it asks is shown at once (later checks are the player's).
  const checkedGiven = useRef(false);
  useEffect(() => {
    if (checkedGiven.current) return;
    checkedGiven.current = true;
    if (link.userCode !== '') void check(link.userCode);
  });
  const answer = async (shown: DeviceCodePreviewView, authorize: boolean): Promise<void> => {
    setError(null);
    setStep({ kind: 'deciding', preview: shown });
    try {
      await decide(shown.user_code, authorize);
      notify('info', authorize ? `Device linked: ${shown.application.name} on that device now uses your account` : `Denied: ${shown.application.name} on that device does not get your account`);
      close();
    } catch (failure) {
      setError(playerErrorText(errorText(failure)));
      setStep({ kind: 'enter' });
    }
  };
  return { code, setCode, step, setStep, error, check, answer };
}

/** Which application the code is for and what it would be allowed. */
function DevicePreview({ preview, expectedApplicationId }: { readonly preview: DeviceCodePreviewView; readonly expectedApplicationId: string | null }): ReactNode {
  const other = expectedApplicationId !== null && expectedApplicationId !== preview.application.id;
  return (
    <div data-testid="device-link-preview" data-application-id={preview.application.id}>
      <div className="grant-head">
        <SafeImage src={appIconUrl(preview.application.id, preview.application.icon)} alt="" className="app-icon small" size={32} fallback={<div className="app-icon small placeholder" aria-hidden="true" />} />
        <p className="device-link-app" data-testid="device-link-app">
          <strong>{preview.application.name}</strong> asks to use your account on the device showing {preview.user_code}.
        </p>
      </div>
      {other && (
        <p className="device-link-error" role="alert" data-testid="device-link-other-app">
          This code is for {preview.application.name}, not for the game that opened this screen. Approve only if you started {preview.application.name} on that device.
        </p>
      )}
      <p>It will be allowed to:</p>
      <ul className="scopes" data-testid="device-link-scopes">
        {preview.descriptions.map((d) => (
          <li key={d.scope} data-scope={d.scope}>
            {d.text === d.scope ? `A permission Companion has no words for (${d.scope})` : d.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
