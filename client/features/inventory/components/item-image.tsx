// An item's picture, or a neutral placeholder when it has none or the URL fails to load.
import { useState } from 'react';
import { Icon } from '../../../components/icons';

export function ItemImage({
  url,
  name,
  className = '',
}: {
  url: string | null | undefined;
  name: string;
  className?: string;
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!url || failedUrl === url) {
    return (
      <div className={`item-image item-image-placeholder ${className}`} role="img" aria-label={`No image for ${name}`}>
        <Icon name="image" size={32} />
      </div>
    );
  }
  return (
    <img className={`item-image ${className}`} src={url} alt={name} loading="lazy" onError={() => setFailedUrl(url)} />
  );
}
