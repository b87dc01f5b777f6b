import { act, screen, waitFor } from '@testing-library/react';
import HomePage, { homeDataVariables } from '../../src/features/home/HomePage';
import { HomeDataDocument } from '../../src/generated/graphql';
import { part, renderStorefront, review } from './renderStorefront';

// keen-slider measures the DOM and reads media queries, which jsdom has not: a ref that does nothing.
jest.mock('keen-slider/react', () => ({ useKeenSlider: () => [() => undefined, { current: null }] }));

const homeData = (parts: ReturnType<typeof part>[], reviews: ReturnType<typeof review>[]) => ({
  request: { query: HomeDataDocument, variables: homeDataVariables },
  result: { data: { popularParts: parts, reviews } },
});

const skeletons = () => screen.queryAllByTestId('part-card-skeleton');

describe('the home page', () => {
  it('has the six sections in order: hero, popular parts, statistics, reviews, promo, contact', async () => {
    renderStorefront(<HomePage />, [homeData([part(1)], [review(1)])]);
    const headings = screen.getAllByRole('heading', { level: 2, hidden: true }).map((h) => h.textContent);
    const order = [
      'Ride like a pro',
      'Live for the Adventure',
      'Popular Moto Parts',
      'PartsYard in numbers',
      'What the Clients Say',
      'Limited time offer, Get Your helmet, 30% Discount On preorders',
      'Leave us a message',
    ];
    expect(headings.filter((h) => order.includes(h ?? ''))).toEqual(order);
    expect(screen.getByRole('button', { name: 'Previous slide' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next slide' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Go to slide/ })).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Browse all parts' })).toHaveAttribute('href', '/parts');
    await screen.findByRole('heading', { name: 'Test Part 1' });
  });

  it('shows 7 placeholder cards while the parts load, then the cards in a 1/2/3-column grid', async () => {
    renderStorefront(<HomePage />, [homeData([part(1), part(2)], [review(1)])]);
    expect(skeletons()).toHaveLength(7);
    await screen.findByRole('heading', { name: 'Test Part 1' });
    expect(skeletons()).toHaveLength(0);
    const grid = screen.getByRole('heading', { name: 'Test Part 2' }).closest('.grid');
    expect(grid).toHaveClass('grid-cols-1', 'md:grid-cols-2', 'lg:grid-cols-3');
    expect(screen.getAllByRole('link', { name: /^Purchase/ }).map((a) => a.getAttribute('href'))).toEqual([
      '/purchase/part-1',
      '/purchase/part-2',
    ]);
  });

  it('keeps the placeholders when the answer has no parts', async () => {
    renderStorefront(<HomePage />, [homeData([], [review(3)])]);
    await screen.findByText('Review text number 3.');
    expect(skeletons()).toHaveLength(7);
  });

  it('starts the reviews slider empty and fills it with text, avatar, name and email when they arrive', async () => {
    renderStorefront(<HomePage />, [homeData([part(1)], [review(1), review(2)])]);
    const carousel = screen.getByRole('region', { name: 'Client reviews' });
    expect(carousel).toBeEmptyDOMElement();
    await screen.findByText('Review text number 1.');
    expect(screen.getByText('Reviewer 2')).toBeInTheDocument();
    expect(screen.getByText('reviewer2@example.com')).toBeInTheDocument();
    expect(carousel.querySelectorAll('img[src="/images/avatars/a1.svg"]')).toHaveLength(1);
  });

  it('shows the promo text word for word', async () => {
    renderStorefront(<HomePage />, [homeData([part(1)], [])]);
    expect(
      screen.getByRole('heading', { name: 'Limited time offer, Get Your helmet, 30% Discount On preorders' }),
    ).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Test Part 1' });
  });
});

describe('with sections that wait to come into view', () => {
  // A stand-in IntersectionObserver: each test says when an observed element comes into or leaves view.
  type Entry = { isIntersecting: boolean; intersectionRatio: number; target: Element; time: number };
  type Callback = (entries: Entry[]) => void;
  interface Observed {
    options?: IntersectionObserverInit;
    target?: Element;
    show: (visible: boolean) => void;
  }
  const observers: Observed[] = [];
  beforeEach(() => {
    observers.length = 0;
    Object.assign(window, {
      IntersectionObserver: class {
        readonly thresholds: number[];
        constructor(
          private readonly callback: Callback,
          readonly options?: IntersectionObserverInit,
        ) {
          const threshold = options?.threshold ?? 0;
          this.thresholds = Array.isArray(threshold) ? threshold : [threshold];
        }
        observe(target: Element) {
          const observed: Observed = {
            options: this.options,
            target,
            show: (visible) =>
              this.callback([
                { isIntersecting: visible, intersectionRatio: visible ? 1 : 0, target, time: performance.now() },
              ]),
          };
          observers.push(observed);
        }
        unobserve() {}
        disconnect() {}
      },
    });
  });
  afterEach(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });

  const figure = (label: string) => screen.getByTestId(`stat-${label}`).textContent;

  it('the statistics band counts from 0 up to 100%, 12+, 26+ and 97% once 30% is visible, and back to 0 when out of view', async () => {
    renderStorefront(<HomePage />, [homeData([part(1)], [])]);
    // The band's observer; the contact form has one too, to load as the visitor nears it.
    const band = observers.filter((o) => o.options?.threshold === 0.3);
    expect(band).toHaveLength(1);
    expect(figure('Reliability')).toBe('0%');
    expect(figure('Years of Experience')).toBe('0+');

    act(() => band[0].show(true));
    await waitFor(
      () => {
        expect(figure('Reliability')).toBe('100%');
        expect(figure('Years of Experience')).toBe('12+');
        expect(figure('Brands')).toBe('26+');
        expect(figure('Durability')).toBe('97%');
      },
      { timeout: 4000 },
    );

    act(() => band[0].show(false));
    expect(figure('Reliability')).toBe('0%');
    expect(figure('Brands')).toBe('0+');
    await screen.findByRole('heading', { name: 'Test Part 1' });
  });

  it('builds the reviews slider and the contact form only once the visitor nears them (a screen away)', async () => {
    renderStorefront(<HomePage />, [homeData([part(1)], [review(1)])]);
    const near = observers.filter((o) => o.options?.rootMargin === '100% 0px');
    const inside = (name: string) => near.find((o) => screen.getByRole('region', { name }).contains(o.target ?? null));
    const reviewsArea = inside('Client reviews');
    const contactArea = inside('Leave us a message');
    expect(reviewsArea && contactArea && near.length === 2).toBe(true);

    await screen.findByRole('heading', { name: 'Test Part 1' });
    expect(screen.queryByText('Review text number 1.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Message' })).not.toBeInTheDocument();
    act(() => reviewsArea?.show(true));
    expect(await screen.findByText('Review text number 1.')).toBeInTheDocument();
    act(() => contactArea?.show(true));
    expect(await screen.findByRole('button', { name: 'Send Message' })).toBeInTheDocument();
  });
});
