import { useKeenSlider } from 'keen-slider/react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { autoplay } from './autoplay';

/** Hero slider timings (spec §9). */
export const heroAutoplayMs = 5000;
const fadeMs = 1000;

interface Slide {
  eyebrow: string;
  headline: string;
  text: string;
  background: string;
  art: ReactNode;
}

/** Speed lines and a wheel: drawn here, no remote images. */
const roadArt = (
  <svg viewBox="0 0 600 400" className="h-full w-full" fill="none" aria-hidden="true">
    <g stroke="currentColor" strokeLinecap="round" opacity="0.35">
      <path d="M20 120h220M60 170h260M10 220h200M80 270h240" strokeWidth="6" />
    </g>
    <g stroke="currentColor" strokeWidth="14" opacity="0.9">
      <circle cx="420" cy="210" r="120" />
      <circle cx="420" cy="210" r="28" fill="currentColor" />
    </g>
    <g stroke="currentColor" strokeWidth="6" opacity="0.7">
      {[0, 30, 60, 90, 120, 150].map((deg) => (
        <line key={deg} x1="420" y1="100" x2="420" y2="320" transform={`rotate(${deg} 420 210)`} />
      ))}
    </g>
    <circle cx="420" cy="210" r="150" stroke="currentColor" strokeWidth="4" strokeDasharray="10 18" opacity="0.4" />
  </svg>
);

/** Mountains, a sun and a trail. */
const mountainArt = (
  <svg viewBox="0 0 600 400" className="h-full w-full" aria-hidden="true">
    <circle cx="450" cy="110" r="60" fill="currentColor" opacity="0.55" />
    <path d="M0 360 L150 170 L240 270 L350 120 L520 360 Z" fill="currentColor" opacity="0.35" />
    <path d="M120 360 L300 200 L400 290 L480 230 L600 360 Z" fill="currentColor" opacity="0.6" />
    <path
      d="M40 390 C200 330 260 380 380 330 S560 300 600 310"
      fill="none"
      stroke="currentColor"
      strokeWidth="6"
      strokeDasharray="16 14"
      opacity="0.8"
    />
  </svg>
);

const slides: Slide[] = [
  {
    eyebrow: 'Performance parts',
    headline: 'Ride like a pro',
    text: 'Brakes, chains, sprockets and suspension that workshops trust, sold in bulk at honest prices.',
    background: 'bg-[linear-gradient(120deg,#111827_0%,#1f2937_45%,#b91c1c_100%)]',
    art: roadArt,
  },
  {
    eyebrow: 'Touring & trail',
    headline: 'Live for the Adventure',
    text: 'Batteries, lights and filters built for long roads, rough tracks and every season in between.',
    background: 'bg-[linear-gradient(135deg,#0f172a_0%,#334155_40%,#d97706_100%)]',
    art: mountainArt,
  },
];

function Arrow({ direction, onClick }: { direction: 'prev' | 'next'; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={direction === 'prev' ? 'Previous slide' : 'Next slide'}
      className={`btn btn-circle btn-sm sm:btn-md absolute bottom-3 z-10 border-white/30 bg-black/30 text-white hover:bg-black/50 sm:top-1/2 sm:bottom-auto sm:-translate-y-1/2 ${
        direction === 'prev' ? 'left-4' : 'right-4'
      }`}
    >
      <svg
        viewBox="0 0 24 24"
        className="h-6 w-6"
        fill="none"
        stroke="currentColor"
        strokeWidth={2.5}
        aria-hidden="true"
      >
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d={direction === 'prev' ? 'M15 19l-7-7 7-7' : 'M9 5l7 7-7 7'}
        />
      </svg>
    </button>
  );
}

/** True from the frame after the first paint on. */
function usePainted() {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/**
 * Two slides that fade into each other: keen-slider tracks the position, and each slide's opacity is its
 * visible portion (the `detailsChanged` event), so the slides stay stacked instead of moving sideways.
 * The first slide shows as plain markup; keen-slider takes over once the page has painted, because it
 * measures the page when it starts, which forces the browser to lay out the whole page mid-render.
 */
export function HeroSlider() {
  const painted = usePainted();
  const [opacities, setOpacities] = useState<number[]>(slides.map((_, i) => (i === 0 ? 1 : 0)));
  const [current, setCurrent] = useState(0);
  const [sliderRef, slider] = useKeenSlider<HTMLDivElement>(
    {
      slides: slides.length,
      loop: true,
      defaultAnimation: { duration: fadeMs },
      detailsChanged(s) {
        setOpacities(s.track.details.slides.map((slide) => slide.portion));
      },
      slideChanged(s) {
        setCurrent(s.track.details.rel);
      },
    },
    [autoplay(heroAutoplayMs)],
  );

  return (
    <section aria-roledescription="carousel" aria-label="Highlights" className="relative" data-carousel>
      <div ref={painted ? sliderRef : undefined} className="relative h-[460px] overflow-hidden md:h-[540px]">
        {slides.map((slide, idx) => {
          const active = idx === current;
          return (
            <div
              key={slide.headline}
              role="group"
              aria-roledescription="slide"
              aria-label={`${idx + 1} of ${slides.length}`}
              aria-hidden={!active}
              inert={!active}
              className={`absolute inset-0 ${slide.background} ${active ? 'z-[1]' : 'pointer-events-none'}`}
              style={{ opacity: opacities[idx] ?? 0 }}
            >
              <div className="pointer-events-none absolute inset-y-0 right-0 hidden w-1/2 p-8 text-white/80 md:block">
                {slide.art}
              </div>
              <div className="pointer-events-none absolute inset-0 p-10 text-white/10 md:hidden">{slide.art}</div>
              <div className="relative mx-auto flex h-full max-w-7xl items-center px-6 sm:px-20">
                <div className="max-w-xl text-white">
                  <p className="mb-3 text-sm font-semibold tracking-[0.2em] text-red-300 uppercase">{slide.eyebrow}</p>
                  <h2 className="text-4xl leading-tight font-extrabold sm:text-5xl lg:text-6xl">{slide.headline}</h2>
                  <p className="mt-4 text-lg text-white/85">{slide.text}</p>
                  <div className="mt-8 flex flex-wrap gap-3">
                    <Link to="/parts" className="btn btn-primary btn-lg">
                      Shop parts
                    </Link>
                    <a href="#contact" className="btn btn-outline btn-lg border-white text-white hover:bg-white/10">
                      Contact us
                    </a>
                  </div>
                </div>
              </div>
            </div>
          );
        })}
      </div>
      <Arrow direction="prev" onClick={() => slider.current?.prev()} />
      <Arrow direction="next" onClick={() => slider.current?.next()} />
      <div className="absolute inset-x-0 bottom-5 z-10 flex justify-center gap-3">
        {slides.map((slide, idx) => (
          <button
            key={slide.headline}
            type="button"
            aria-label={`Go to slide ${idx + 1}: ${slide.headline}`}
            aria-current={idx === current ? 'true' : undefined}
            onClick={() => {
              // In a loop the track counts on past the last slide: move by the shortest distance.
              const details = slider.current?.track.details;
              if (details) slider.current?.moveToIdx(details.abs + idx - details.rel);
            }}
            className={`h-3 rounded-full transition-all ${idx === current ? 'w-8 bg-white' : 'w-3 bg-white/50 hover:bg-white/80'}`}
          />
        ))}
      </div>
    </section>
  );
}
