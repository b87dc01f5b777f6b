import { Suspense, type ReactNode } from 'react';
import { useInView } from '../lib/useInView';

/**
 * Shows `children` once its place comes within a screen's height of the viewport, and `placeholder` until
 * then (and while lazy code inside loads). A below-the-fold section that is costly to download or to build
 * then costs nothing while the page loads, only as the visitor scrolls towards it. Where
 * IntersectionObserver is missing it shows at once.
 */
export function NearViewport({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const [ref, near] = useInView<HTMLDivElement>({ rootMargin: '100% 0px', once: true });
  if (!near) return <div ref={ref}>{placeholder}</div>;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
