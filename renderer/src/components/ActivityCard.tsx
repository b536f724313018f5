import type { ReactNode } from 'react';
import type { ActivityView } from '../../../preload/src/contract';
import { activityHeading, activityTime } from '../lib/format';
import { activityImageUrl } from '../lib/images';
import { safeLinkUrl } from '../lib/url';
import { useNow } from '../lib/use-now';
import { ExternalLink, SafeImage } from './safe';

/** Buttons as friends see them: labels, with a link only when the URL is http(s). */
function activityButtons(activity: ActivityView): { label: string; url: string | null }[] {
  const urls = activity.metadata?.button_urls ?? [];
  return (activity.buttons ?? []).slice(0, 2).map((button, index) =>
    typeof button === 'string' ? { label: button, url: safeLinkUrl(urls[index]) } : { label: String(button.label), url: safeLinkUrl(button.url) },
  );
}

/** The first letter of the activity's name: what shows when its picture cannot. */
function ArtFallback({ activity }: { readonly activity: ActivityView }): ReactNode {
  return (
    <span className="art-fallback" aria-hidden="true" data-testid="activity-art-fallback">
      {Array.from(activity.name ?? '?')[0]?.toUpperCase() ?? '?'}
    </span>
  );
}

/**
 * The activity's pictures as the client shows them: the large image, with the small one as a
 * round badge on its corner (alone, the small image takes the large one's place). Hovering shows
 * their texts. A picture that cannot be shown gives way to the activity's initial.
 */
function ActivityArt({ activity, applicationId }: { readonly activity: ActivityView; readonly applicationId: string | undefined }): ReactNode {
  const assets = activity.assets ?? {};
  let large = { value: assets['large_image'], text: assets['large_text'] };
  let small = { value: assets['small_image'], text: assets['small_text'] };
  if ((large.value === undefined || large.value === '') && small.value !== undefined && small.value !== '') [large, small] = [small, { value: undefined, text: undefined }];
  const largeUrl = activityImageUrl(applicationId, large.value);
  if (large.value === undefined || large.value === '') return null;
  const smallUrl = activityImageUrl(applicationId, small.value);
  return (
    <div className="activity-art">
      <SafeImage src={largeUrl} alt={large.text ?? ''} className="asset asset-large" size={72} fallback={<ArtFallback activity={activity} />} testId="activity-large-image" />
      {smallUrl !== null && <SafeImage src={smallUrl} alt={small.text ?? ''} className="asset asset-small" size={24} testId="activity-small-image" />}
    </div>
  );
}

/**
 * An activity rendered as friends see it. Every field comes from an untrusted game: all of it
 * is rendered as text, and URLs become links or images only when they are http(s).
 */
export function ActivityCard({ activity, footer, applicationId }: { readonly activity: ActivityView; readonly footer?: ReactNode; readonly applicationId?: string }): ReactNode {
  const now = useNow(1000);
  const time = activityTime(activity.timestamps, now);
  const size = activity.party?.size;
  const buttons = activityButtons(activity);
  return (
    <div className="activity" data-testid="activity">
      <ActivityArt activity={activity} applicationId={applicationId ?? activity.application_id} />
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
