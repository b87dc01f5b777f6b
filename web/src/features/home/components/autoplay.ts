import type { KeenSliderPlugin } from 'keen-slider/react';

/**
 * keen-slider has no autoplay of its own: this plugin moves to the next slide every `delay` ms, and pauses
 * while the pointer is over the carousel, while it holds keyboard focus, and while it is being dragged.
 */
export function autoplay(delay: number): KeenSliderPlugin {
  return (slider) => {
    let timeout: ReturnType<typeof setTimeout> | undefined;
    let hovered = false;
    let focused = false;
    const stop = () => clearTimeout(timeout);
    const schedule = () => {
      stop();
      if (hovered || focused) return;
      timeout = setTimeout(() => slider.next(), delay);
    };
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
      schedule();
    });
    slider.on('dragStarted', stop);
    slider.on('animationEnded', schedule);
    slider.on('updated', schedule);
    slider.on('destroyed', stop);
  };
}
