/** A motorcycle, drawn in the current colour (decorative: the button beside it says what it is). */
export function BikeIcon({ className = 'h-6 w-6' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="5" cy="16" r="3.2" />
      <circle cx="19" cy="16" r="3.2" />
      <path d="M5 16h4.5l3.5-5h3l3 5M9.5 16 8 11H5m8 0-1.5-3H9" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
