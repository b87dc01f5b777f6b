import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Shows `children` once its place comes within a screen's height of the viewport, and `placeholder` until
 * then (and while lazy code inside loads). A below-the-fold section that is costly to download or to build
 * then costs nothing while the page loads, only as the visitor scrolls towards it. Where
 * IntersectionObserver is missing it shows at once.
 */
export function NearViewport({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '100% 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  if (!near) return <div ref={ref}>{placeholder}</div>;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
