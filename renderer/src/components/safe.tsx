import { useState, type ReactNode } from 'react';
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

/** A `cdn/` path of lib/images.ts (made from checked ids and keys only). */
const CDN_PATH = /^cdn\/(?:(?:app-icons|app-assets|avatars)\/\d{1,20}\/[A-Za-z0-9_.%-]{1,80}|external\/[A-Za-z0-9_-]{1,4096})$/;

/**
 * An image only when `src` is http(s), a raster data URL or one of the UI's `cdn/` paths;
 * otherwise, or when it fails to load (a broken link, no network, an unknown asset), `fallback`
 * (or nothing). Images never send a referrer.
 */
export function SafeImage(props: {
  readonly src: unknown;
  readonly alt: string;
  readonly className?: string;
  readonly size?: number;
  readonly fallback?: ReactNode;
  readonly testId?: string;
}): ReactNode {
  const safe = typeof props.src === 'string' && CDN_PATH.test(props.src) ? props.src : safeImageUrl(props.src);
  const [failed, setFailed] = useState<string | null>(null);
  if (safe === null || failed === safe) return props.fallback ?? null;
  return (
    <img
      src={safe}
      alt={props.alt}
      title={props.alt === '' ? undefined : props.alt}
      className={props.className}
      width={props.size}
      height={props.size}
      referrerPolicy="no-referrer"
      loading="lazy"
      decoding="async"
      onError={() => setFailed(safe)}
      data-testid={props.testId}
    />
  );
}
