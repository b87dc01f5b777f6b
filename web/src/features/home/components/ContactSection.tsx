import { lazy, type ReactNode } from 'react';
import { NearViewport } from '../../../components/NearViewport';

const ContactForm = lazy(() => import('./ContactForm'));

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true">
    <path strokeLinecap="round" strokeLinejoin="round" d={d} />
  </svg>
);

// Placeholder contact details (spec §2).
const details: { label: string; value: ReactNode; icon: ReactNode }[] = [
  {
    label: 'Address',
    value: '221 Workshop Lane, Motor City 1207',
    icon: icon('M12 21s-7-6.1-7-11a7 7 0 1114 0c0 4.9-7 11-7 11zm0-8.5a2.5 2.5 0 100-5 2.5 2.5 0 000 5z'),
  },
  {
    label: 'Phone',
    value: '+1 (555) 010-1967',
    icon: icon(
      'M3 5a2 2 0 012-2h2.3a1 1 0 011 .7l1.1 3.4a1 1 0 01-.3 1.1L7.6 9.6a14 14 0 006.8 6.8l1.4-1.5a1 1 0 011.1-.3l3.4 1.1a1 1 0 01.7 1V19a2 2 0 01-2 2C9.7 21 3 14.3 3 6V5z',
    ),
  },
  {
    label: 'Email',
    value: 'hello@partsyard.example',
    icon: icon('M3 7l9 6 9-6M5 5h14a2 2 0 012 2v10a2 2 0 01-2 2H5a2 2 0 01-2-2V7a2 2 0 012-2z'),
  },
  {
    label: 'Opening hours',
    value: 'Sat–Thu, 9:00–18:00',
    icon: icon('M12 7v5l3 2m6-2a9 9 0 11-18 0 9 9 0 0118 0z'),
  },
];

/** 'Leave us a message': the shop's contact details, and the form once the visitor scrolls near it. */
export function ContactSection() {
  return (
    <section id="contact" aria-labelledby="contact-title" className="bg-base-200 py-16">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <p className="text-sm font-semibold tracking-[0.2em] text-red-700 uppercase">Contact</p>
          <h2 id="contact-title" className="mt-2 text-3xl font-extrabold sm:text-4xl">
            Leave us a message
          </h2>
          <p className="mt-4 text-gray-600">
            Questions about bulk pricing, fitment or delivery? Write to us and our parts desk answers within one working
            day.
          </p>
          <ul className="mt-8 flex flex-col gap-5">
            {details.map((d) => (
              <li key={d.label} className="flex items-start gap-4">
                <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                  {d.icon}
                </span>
                <span>
                  <span className="block text-sm text-gray-700">{d.label}</span>
                  <span className="block font-semibold">{d.value}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div className="card bg-base-100 shadow-xl lg:col-span-3">
          <div className="card-body">
            {/* The placeholder is about as tall as the form, so nothing below moves when it arrives. */}
            <NearViewport placeholder={<div className="min-h-[31.5rem] sm:min-h-[21.5rem]" aria-hidden="true" />}>
              <ContactForm />
            </NearViewport>
          </div>
        </div>
      </div>
    </section>
  );
}
