import { useEffect, useRef, useState } from 'react';

/**
 * Whether an element is on screen: the one in-view hook of the web app. Ours rather than
 * react-intersection-observer, which adds 1.0 kB gzipped to the home page (docs/decisions.md).
 * `once`: stays true from the first time the element comes into view (the observer is then dropped).
 * Where IntersectionObserver is missing (old browsers, jsdom) the element counts as in view.
 */
export function useInView<T extends Element>({
  rootMargin,
  threshold,
  once = false,
}: {
  rootMargin?: string;
  threshold?: number;
  once?: boolean;
}) {
  const ref = useRef<T>(null);
  const [inView, setInView] = useState(typeof IntersectionObserver === 'undefined');
  const done = once && inView;
  useEffect(() => {
    const element = ref.current;
    if (done || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), {
      rootMargin,
      threshold,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [done, rootMargin, threshold]);
  return [ref, inView] as const;
}
