import { useEffect, useState, type ReactNode } from 'react';
import { useInView } from '../../../lib/useInView';

/** The band counts up once this much of it is visible (spec §9). */
export const statsVisibleThreshold = 0.3;
const countUpMs = 1600;

interface Stat {
  label: string;
  value: number;
  suffix: string;
  icon: ReactNode;
}

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true">
    <path strokeLinecap="round" strokeLinejoin="round" d={d} />
  </svg>
);

export const stats: Stat[] = [
  {
    label: 'Reliability',
    value: 100,
    suffix: '%',
    icon: icon('M12 3l7 3v6c0 4.5-3 7.8-7 9-4-1.2-7-4.5-7-9V6l7-3zm-3 9l2 2 4-4'),
  },
  { label: 'Years of Experience', value: 12, suffix: '+', icon: icon('M12 7v5l3 2m6-2a9 9 0 11-18 0 9 9 0 0118 0z') },
  {
    label: 'Brands',
    value: 26,
    suffix: '+',
    icon: icon('M7 7h.01M3 11l8.5 8.5a2 2 0 002.8 0l5.2-5.2a2 2 0 000-2.8L11 3H3v8z'),
  },
  { label: 'Durability', value: 97, suffix: '%', icon: icon('M13 2L4 14h7l-1 8 9-12h-7l1-8z') },
];

const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/** Counts from 0 up to `target` while `running`; back to 0 when it stops. */
function useCountUp(target: number, running: boolean) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!running) {
      setCount(0);
      return;
    }
    if (prefersReducedMotion()) {
      setCount(target);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const tick = (now: number) => {
      const t = Math.min((now - start) / countUpMs, 1);
      setCount(Math.round(target * (1 - (1 - t) ** 3)));
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [target, running]);
  return count;
}

function Counter({ stat, running }: { stat: Stat; running: boolean }) {
  const count = useCountUp(stat.value, running);
  return (
    <li className="flex flex-col items-center gap-3 rounded-box bg-white/5 p-6 text-center ring-1 ring-white/10">
      <span className="text-red-400">{stat.icon}</span>
      <p className="text-4xl font-extrabold tabular-nums sm:text-5xl">
        {/* Screen readers get the figure once, not every step of the animation. */}
        <span aria-hidden="true" data-testid={`stat-${stat.label}`}>
          {count}
          {stat.suffix}
        </span>
        <span className="sr-only">
          {stat.value}
          {stat.suffix}
        </span>
      </p>
      <p className="text-sm font-medium tracking-wide text-white/80 uppercase">{stat.label}</p>
    </li>
  );
}

/** The statistics band: counters animate from 0 when 30% of it is visible and reset when it leaves the view. */
export function StatsBand() {
  const [ref, inView] = useInView<HTMLElement>({ threshold: statsVisibleThreshold });
  return (
    <section ref={ref} aria-labelledby="stats-title" className="bg-neutral py-16 text-neutral-content">
      <div className="mx-auto max-w-7xl px-4">
        <h2 id="stats-title" className="mb-10 text-center text-3xl font-extrabold sm:text-4xl">
          PartsYard in numbers
        </h2>
        <ul className="grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-4">
          {stats.map((stat) => (
            <Counter key={stat.label} stat={stat} running={inView} />
          ))}
        </ul>
      </div>
    </section>
  );
}
