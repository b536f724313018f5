import type { ReactNode } from 'react';
import type { ActivityView } from '../../../preload/src/contract';
import { activityHeading, activityTime } from '../lib/format';
import { safeImageUrl, safeLinkUrl } from '../lib/url';
import { useNow } from '../lib/use-now';
import { ExternalLink, SafeImage } from './safe';

/** Buttons as friends see them: labels, with a link only when the URL is http(s). */
function activityButtons(activity: ActivityView): { label: string; url: string | null }[] {
  const urls = activity.metadata?.button_urls ?? [];
  return (activity.buttons ?? []).slice(0, 2).map((button, index) =>
    typeof button === 'string' ? { label: button, url: safeLinkUrl(urls[index]) } : { label: String(button.label), url: safeLinkUrl(button.url) },
  );
}

function AssetImage({ value, text, kind }: { readonly value: string | undefined; readonly text: string | undefined; readonly kind: string }): ReactNode {
  if (value === undefined || value === '') return null;
  if (safeImageUrl(value) !== null) {
    return <SafeImage src={value} alt={text ?? `${kind} image`} className={`asset asset-${kind}`} size={kind === 'large' ? 64 : 24} />;
  }
  // An asset key (uploaded art, mp:external/…): shown as the key, never loaded.
  return (
    <span className={`asset-key asset-${kind}`} title={text}>
      {kind} image: <code>{value}</code>
    </span>
  );
}

/**
 * An activity rendered as friends see it. Every field comes from an untrusted game: all of it
 * is rendered as text, and URLs become links or images only when they are http(s).
 */
export function ActivityCard({ activity, footer }: { readonly activity: ActivityView; readonly footer?: ReactNode }): ReactNode {
  const now = useNow(1000);
  const time = activityTime(activity.timestamps, now);
  const size = activity.party?.size;
  const buttons = activityButtons(activity);
  const assets = activity.assets ?? {};
  return (
    <div className="activity" data-testid="activity">
      <div className="activity-images">
        <AssetImage value={assets['large_image']} text={assets['large_text']} kind="large" />
        <AssetImage value={assets['small_image']} text={assets['small_text']} kind="small" />
      </div>
      <div className="activity-text">
        <div className="activity-name" data-testid="activity-name">
          {activityHeading(activity)}
        </div>
        {activity.details !== undefined && (
          <div className="activity-details" data-testid="activity-details">
            <ExternalLink href={activity.details_url}>{activity.details}</ExternalLink>
          </div>
        )}
        {activity.state !== undefined && (
          <div className="activity-state" data-testid="activity-state">
            <ExternalLink href={activity.state_url}>{activity.state}</ExternalLink>
            {size !== undefined && size.length >= 2 && (
              <span className="party-size" data-testid="activity-party">
                {' '}
                ({size[0]} of {size[1]})
              </span>
            )}
          </div>
        )}
        {activity.state === undefined && size !== undefined && size.length >= 2 && (
          <div className="party-size" data-testid="activity-party">
            Party: {size[0]} of {size[1]}
          </div>
        )}
        {time !== null && (
          <div className="activity-time" data-testid="activity-time">
            {time.text}
          </div>
        )}
        {buttons.length > 0 && (
          <div className="activity-buttons">
            {buttons.map((button, index) =>
              button.url === null ? (
                <span key={index} className="activity-button" data-testid="activity-button">
                  {button.label}
                </span>
              ) : (
                <a key={index} className="activity-button" data-testid="activity-button" href={button.url} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer">
                  {button.label}
                </a>
              ),
            )}
          </div>
        )}
        {footer}
      </div>
    </div>
  );
}
