import type { ReactNode } from 'react';
import { safeImageUrl, safeLinkUrl } from '../lib/url';

/** A link only when `href` is http(s); otherwise just its children, as text. */
export function ExternalLink({ href, children }: { readonly href: unknown; readonly children: ReactNode }): ReactNode {
  const safe = safeLinkUrl(href);
  if (safe === null) return <span>{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer nofollow" referrerPolicy="no-referrer">
      {children}
    </a>
  );
}

/**
 * An image only when `src` is http(s) or a raster data URL; otherwise `fallback` (or nothing).
 * Images never send a referrer.
 */
export function SafeImage(props: {
  readonly src: unknown;
  readonly alt: string;
  readonly className?: string;
  readonly size?: number;
  readonly fallback?: ReactNode;
}): ReactNode {
  const safe = safeImageUrl(props.src);
  if (safe === null) return props.fallback ?? null;
  return (
    <img
      src={safe}
      alt={props.alt}
      className={props.className}
      width={props.size}
      height={props.size}
      referrerPolicy="no-referrer"
      loading="lazy"
      decoding="async"
    />
  );
}
