import { Link } from 'react-router-dom';

export function Brand({ className = '' }: { className?: string }) {
  return (
    <Link
      to="/"
      className={`flex items-center gap-2 text-xl font-extrabold tracking-tight ${className}`}
      aria-label="PartsYard home"
    >
      <img src="/favicon.svg" alt="" width={32} height={32} />
      <span>
        Parts<span className="text-primary">Yard</span>
      </span>
    </Link>
  );
}
