import type { KeenSliderPlugin } from 'keen-slider/react';

/** The visitor asked their system for less motion: the carousels then move only when told to. */
const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * keen-slider has no autoplay of its own: this plugin moves to the next slide every `delay` ms, and pauses
 * while the pointer is over the carousel, while it holds keyboard focus, and while it is being dragged. It
 * does not move at all for a visitor who prefers reduced motion (the arrows and dots still do), and waits while
 * the carousel is off screen or the tab hidden: a slide moving that nobody sees costs a phone's battery (the
 * reviews' every 2 s kept the home page's renderer at some 14 % of a core while idle).
 */
export function autoplay(delay: number): KeenSliderPlugin {
  return (slider) => {
    let timeout: ReturnType<typeof setTimeout> | undefined;
    let hovered = false;
    let focused = false;
    let onScreen = true;
    let observer: IntersectionObserver | undefined;
    const stop = () => clearTimeout(timeout);
    const schedule = () => {
      stop();
      if (hovered || focused || !onScreen || document.hidden || prefersReducedMotion()) return;
      timeout = setTimeout(() => slider.next(), delay);
    };
    const visibilityChanged = () => (document.hidden ? stop() : schedule());
    slider.on('created', () => {
      // The arrows and dots sit beside the track, so the pause covers the whole carousel when there is one.
      const area = slider.container.closest<HTMLElement>('[data-carousel]') ?? slider.container;
      area.addEventListener('mouseenter', () => {
        hovered = true;
        stop();
      });
      area.addEventListener('mouseleave', () => {
        hovered = false;
        schedule();
      });
      area.addEventListener('focusin', () => {
        focused = true;
        stop();
      });
      area.addEventListener('focusout', (e) => {
        if (area.contains(e.relatedTarget as Node | null)) return;
        focused = false;
        schedule();
      });
      document.addEventListener('visibilitychange', visibilityChanged);
      if (typeof IntersectionObserver === 'function') {
        observer = new IntersectionObserver((entries) => {
          onScreen = entries.some((entry) => entry.isIntersecting);
          schedule();
        });
        observer.observe(area);
      }
      schedule();
    });
    slider.on('dragStarted', stop);
    slider.on('animationEnded', schedule);
    slider.on('updated', schedule);
    slider.on('destroyed', () => {
      stop();
      observer?.disconnect();
      document.removeEventListener('visibilitychange', visibilityChanged);
    });
  };
}
