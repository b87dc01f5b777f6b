import { useKeenSlider } from 'keen-slider/react';
import { NearViewport } from '../../../components/NearViewport';
import { defaultAvatar } from '../../../components/Header';
import type { ReviewFieldsFragment } from '../../../generated/graphql';
import { autoplay } from './autoplay';

/** Reviews slider timing (spec §9). */
export const reviewsAutoplayMs = 2000;

function ReviewCard({ review }: { review: ReviewFieldsFragment }) {
  return (
    <figure className="card h-full border border-base-300 bg-base-100 shadow-sm">
      <div className="card-body gap-4">
        <svg viewBox="0 0 24 24" className="h-8 w-8 text-primary/30" fill="currentColor" aria-hidden="true">
          <path d="M9.6 6C6.5 7.4 4.5 10 4.5 13.4V18h6v-6H7.7c.2-1.9 1.4-3.4 3.3-4.3L9.6 6zm9 0c-3.1 1.4-5.1 4-5.1 7.4V18h6v-6h-2.8c.2-1.9 1.4-3.4 3.3-4.3L18.6 6z" />
        </svg>
        <blockquote className="flex-1 text-gray-700">{review.text}</blockquote>
        <figcaption className="flex items-center gap-3 border-t border-base-300 pt-4">
          <img
            src={review.avatar || defaultAvatar}
            alt=""
            width={48}
            height={48}
            loading="lazy"
            decoding="async"
            referrerPolicy="no-referrer"
            className="h-12 w-12 rounded-full bg-base-200 object-cover"
          />
          <div className="min-w-0">
            <p className="truncate font-semibold">{review.name}</p>
            <p className="truncate text-sm text-gray-600">{review.email}</p>
          </div>
        </figcaption>
      </div>
    </figure>
  );
}

/** keen-slider measures its slides when it is created, so the track mounts once the reviews are there. */
function ReviewTrack({ reviews }: { reviews: ReviewFieldsFragment[] }) {
  const [sliderRef] = useKeenSlider<HTMLDivElement>(
    {
      loop: reviews.length > 3,
      slides: { perView: 1, spacing: 16 },
      breakpoints: {
        '(min-width: 768px)': { slides: { perView: 2, spacing: 20 } },
        '(min-width: 1024px)': { slides: { perView: 3, spacing: 24 } },
      },
    },
    [autoplay(reviewsAutoplayMs)],
  );
  return (
    <div ref={sliderRef} className="keen-slider" data-carousel>
      {reviews.map((review, idx) => (
        <div
          key={review.id}
          className="keen-slider__slide pb-2"
          role="group"
          aria-roledescription="slide"
          aria-label={`${idx + 1} of ${reviews.length}`}
        >
          <ReviewCard review={review} />
        </div>
      ))}
    </div>
  );
}

/**
 * 'What the Clients Say': starts empty and fills when the reviews arrive (spec §4). The slider (a dozen cards,
 * and keen-slider measuring them) is built as the visitor nears it, not while the page loads.
 */
export function ReviewsSlider({ reviews }: { reviews: ReviewFieldsFragment[] }) {
  return (
    <section aria-labelledby="reviews-title" className="bg-base-200 py-16">
      <div className="mx-auto max-w-7xl px-4">
        <div className="mb-10 text-center">
          <p className="text-sm font-semibold tracking-[0.2em] text-red-700 uppercase">Testimonials</p>
          <h2 id="reviews-title" className="mt-2 text-3xl font-extrabold sm:text-4xl">
            What the Clients Say
          </h2>
        </div>
        <div aria-roledescription="carousel" aria-label="Client reviews" role="region" className="min-h-56">
          <NearViewport placeholder={<div className="min-h-56" />}>
            {reviews.length > 0 && <ReviewTrack key={reviews.map((r) => r.id).join()} reviews={reviews} />}
          </NearViewport>
        </div>
      </div>
    </section>
  );
}
