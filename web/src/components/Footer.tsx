import { Brand } from './Brand';

const columns = [
  { title: 'Services', links: ['Branding', 'Design', 'Marketing', 'Advertisement'] },
  { title: 'Company', links: ['About us', 'Contact', 'Jobs', 'Press kit'] },
  { title: 'Legal', links: ['Terms of use', 'Privacy policy', 'Cookie policy'] },
];

/** Brand, tagline, the spec's three columns (links without targets) and the copyright line. */
export function Footer() {
  return (
    <footer className="mt-16 bg-neutral text-neutral-content">
      <div className="footer mx-auto max-w-7xl p-10 sm:footer-horizontal">
        <aside className="max-w-xs">
          <Brand />
          <p>
            PartsYard Ltd.
            <br />
            Providing reliable parts since 1967
          </p>
        </aside>
        {columns.map((c) => (
          <nav key={c.title}>
            <h2 className="footer-title text-neutral-content opacity-100">{c.title}</h2>
            {c.links.map((l) => (
              <span key={l} className="link-hover link">
                {l}
              </span>
            ))}
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10 py-4 text-center text-sm">
        Copyright © 2022 — All rights reserved by PartsYard Ltd.
      </div>
    </footer>
  );
}
