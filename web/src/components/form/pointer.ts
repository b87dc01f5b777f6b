/**
 * Whether a pointer is pressed, and running work once it is released. A field that loses focus because the
 * visitor pressed the mouse on a button (the blur comes on mouse down, the click on mouse up) must not show
 * its message in between: the message would push the button away from under the pointer and the click would
 * land on nothing. Fields wait for the release (and the click it makes) before they show what is wrong.
 */
let installed = false;
let pressed = false;
let safety: ReturnType<typeof setTimeout> | undefined;
const waiting = new Set<() => void>();

function release() {
  pressed = false;
  clearTimeout(safety);
  // After the click that this release makes has been handled.
  setTimeout(() => {
    const runs = [...waiting];
    waiting.clear();
    runs.forEach((run) => run());
  }, 0);
}

/** Starts following the pointer (once per page; forms call it when they mount). */
export function followPointer(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener(
    'pointerdown',
    () => {
      pressed = true;
      // A press that never ends here (released outside the window) must not hold messages back for long.
      clearTimeout(safety);
      safety = setTimeout(release, 1500);
    },
    true,
  );
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

/** Runs `work` now, or once the pointer pressed now is released. */
export function afterPointerRelease(work: () => void): void {
  if (pressed) waiting.add(work);
  else work();
}
