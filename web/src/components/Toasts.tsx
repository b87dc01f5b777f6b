import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { resolveValue, toast, useToaster, type Toast } from 'react-hot-toast/headless';

/** Toasts last this long (spec §1, §9). */
export const toastDuration = 5000;

const icons: Partial<Record<Toast['type'], string>> = { success: '✓', error: '!', loading: '…' };

function ToastCard({ item }: { item: Toast }) {
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    // A press on the toast's link (View list, Pay now) is a click, not a drag: captured, the click would go to
    // the card and the link would never open.
    if (e.target instanceof Element && e.target.closest('a, button')) return;
    start.current = e.clientX;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current !== null) setDx(e.clientX - start.current);
  };
  const onUp = () => {
    // Dragged far enough sideways: dismissed, as with a swipe.
    if (Math.abs(dx) > 80) toast.dismiss(item.id);
    start.current = null;
    setDx(0);
  };
  // Dark text on a pale ground: readable (WCAG AA) whatever the tone.
  const tone =
    item.type === 'error'
      ? 'border-red-300 bg-red-50 text-red-900'
      : item.type === 'success'
        ? 'border-green-300 bg-green-50 text-green-900'
        : 'border-sky-300 bg-sky-50 text-sky-900';
  return (
    <div
      role={item.type === 'error' ? 'alert' : 'status'}
      aria-live="polite"
      data-testid="toast"
      className={`alert ${tone} w-80 max-w-[calc(100vw-2rem)] cursor-grab touch-pan-y select-none shadow-lg`}
      style={{ transform: `translateX(${dx}px)`, opacity: 1 - Math.min(Math.abs(dx) / 160, 0.7) }}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
    >
      <span aria-hidden className="font-bold">
        {icons[item.type] ?? 'i'}
      </span>
      <span>{resolveValue(item.message, item)}</span>
    </div>
  );
}

/**
 * Toasts at the top right: they close after 5000 ms, pause while hovered and while the window has lost
 * focus, and can be dragged sideways to dismiss (react-hot-toast's headless useToaster). Every import of the
 * library goes through 'react-hot-toast/headless': it keeps one store, and leaves out the styled default
 * toaster we do not use.
 */
export function Toasts() {
  const { toasts, handlers } = useToaster({ duration: toastDuration });
  const { startPause, endPause } = handlers;
  useEffect(() => {
    window.addEventListener('blur', startPause);
    window.addEventListener('focus', endPause);
    return () => {
      window.removeEventListener('blur', startPause);
      window.removeEventListener('focus', endPause);
    };
  }, [startPause, endPause]);
  return (
    // Paused while hovered or while a toast holds the keyboard focus (one may carry a link: Pay now).
    <div
      className="fixed top-4 right-4 z-[100] flex flex-col gap-2"
      onMouseEnter={startPause}
      onMouseLeave={endPause}
      onFocus={startPause}
      onBlur={endPause}
    >
      {toasts
        .filter((t) => t.visible)
        .map((t) => (
          <ToastCard key={t.id} item={t} />
        ))}
    </div>
  );
}
