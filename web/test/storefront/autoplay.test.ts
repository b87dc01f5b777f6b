import type { KeenSliderInstance } from 'keen-slider/react';
import { autoplay } from '../../src/features/home/components/autoplay';

/** A stand-in for keen-slider: the plugin's events, a container in a carousel, and `next` counted. */
function fakeSlider() {
  const handlers = new Map<string, (() => void)[]>();
  const carousel = document.createElement('div');
  carousel.dataset.carousel = '';
  const container = document.createElement('div');
  carousel.append(container);
  document.body.append(carousel);
  const slider = {
    container,
    next: jest.fn(),
    on: (event: string, handler: () => void) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
  };
  const emit = (event: string) => handlers.get(event)?.forEach((handler) => handler());
  autoplay(2000)(slider as unknown as KeenSliderInstance);
  emit('created');
  return { slider, carousel, emit };
}

const reducedMotion = (reduce: boolean) => {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
  })) as unknown as typeof window.matchMedia;
};

/** IntersectionObserver as the browser has it, with a way to say whether the carousel is on screen. */
let observed: ((entries: { isIntersecting: boolean }[]) => void) | undefined;
class FakeIntersectionObserver {
  constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
    observed = callback;
  }
  observe() {}
  disconnect() {
    observed = undefined;
  }
}

describe('the carousels’ autoplay', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    reducedMotion(false);
    (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
  });
  afterEach(() => {
    jest.useRealTimers();
    document.body.innerHTML = '';
  });

  it('moves on every `delay` ms, and waits while the pointer is over the carousel', () => {
    const { slider, carousel, emit } = fakeSlider();
    jest.advanceTimersByTime(2000);
    expect(slider.next).toHaveBeenCalledTimes(1);
    emit('animationEnded');
    carousel.dispatchEvent(new Event('mouseenter'));
    jest.advanceTimersByTime(10_000);
    expect(slider.next).toHaveBeenCalledTimes(1);
    carousel.dispatchEvent(new Event('mouseleave'));
    jest.advanceTimersByTime(2000);
    expect(slider.next).toHaveBeenCalledTimes(2);
  });

  it('never moves by itself for a visitor who prefers reduced motion', () => {
    reducedMotion(true);
    const { slider, emit } = fakeSlider();
    jest.advanceTimersByTime(20_000);
    emit('updated');
    jest.advanceTimersByTime(20_000);
    expect(slider.next).not.toHaveBeenCalled();
  });

  it('waits while the carousel is off screen, and moves on once it is back', () => {
    const { slider } = fakeSlider();
    observed?.([{ isIntersecting: false }]);
    jest.advanceTimersByTime(20_000);
    expect(slider.next).not.toHaveBeenCalled();
    observed?.([{ isIntersecting: true }]);
    jest.advanceTimersByTime(2000);
    expect(slider.next).toHaveBeenCalledTimes(1);
  });

  it('waits while the tab is hidden', () => {
    const { slider } = fakeSlider();
    const hidden = jest.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange'));
    jest.advanceTimersByTime(20_000);
    expect(slider.next).not.toHaveBeenCalled();
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    jest.advanceTimersByTime(2000);
    expect(slider.next).toHaveBeenCalledTimes(1);
  });

  it('stops watching once the slider is destroyed', () => {
    const { slider, emit } = fakeSlider();
    emit('destroyed');
    expect(observed).toBeUndefined();
    document.dispatchEvent(new Event('visibilitychange'));
    jest.advanceTimersByTime(20_000);
    expect(slider.next).not.toHaveBeenCalled();
  });
});
