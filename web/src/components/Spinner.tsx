/** A loading indicator; `centered` fills the page area and centers it. */
export function Spinner({ centered = false }: { centered?: boolean }) {
  const spinner = (
    <span className="loading loading-spinner loading-lg text-primary" role="status" aria-label="Loading" />
  );
  return centered ? <div className="flex min-h-[60vh] items-center justify-center">{spinner}</div> : spinner;
}
