import type { ImgHTMLAttributes } from 'react';

/** Our own picture for a part without one, or whose picture cannot be loaded. */
export const defaultPartImage = '/images/parts/default.svg';

/**
 * A part's picture. Parts may point at any http(s) image: with none, or with a broken address, the picture
 * falls back to our own.
 */
export function PartImage({
  src,
  ...props
}: Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'onError'> & { src: string | null | undefined }) {
  return (
    <img
      src={src || defaultPartImage}
      // An image on another host learns nothing of the page it is shown on.
      referrerPolicy="no-referrer"
      {...props}
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(defaultPartImage)) e.currentTarget.src = defaultPartImage;
      }}
    />
  );
}
