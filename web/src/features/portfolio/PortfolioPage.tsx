import { Link } from 'react-router-dom';

const skills = [
  { name: 'HTML & CSS', level: 95 },
  { name: 'JavaScript & TypeScript', level: 90 },
  { name: 'React', level: 88 },
  { name: 'Tailwind CSS & daisyUI', level: 85 },
  { name: 'Node.js & GraphQL', level: 78 },
  { name: 'PostgreSQL', level: 70 },
];

const projects = [
  {
    title: 'PartsYard storefront',
    text: 'The shop you are looking at: a searchable, paged catalog of motorcycle parts with bulk ordering.',
    to: '/parts',
    tags: ['React', 'Apollo', 'Tailwind'],
  },
  {
    title: 'Customer dashboard',
    text: 'Orders, card payments, reviews and a profile, behind sign-in, with admin tools for the shop team.',
    to: '/dashboard',
    tags: ['Firebase Auth', 'Stripe', 'GraphQL'],
  },
  {
    title: 'Web development blog',
    text: 'Short answers to the questions I am asked most about React, JavaScript and testing.',
    to: '/blog',
    tags: ['React', 'JavaScript', 'Testing'],
  },
];

const facts = [
  { label: 'Based in', value: 'Bangladesh' },
  { label: 'Focus', value: 'Front-end & full-stack web' },
  { label: 'Experience', value: '3+ years building for the web' },
  { label: 'Open to', value: 'Freelance and full-time roles' },
];

/** A static page: a personal developer introduction, skill bars, three projects and an about card (spec §1). */
export default function PortfolioPage() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-16 px-4 py-12">
      <section
        aria-labelledby="intro-title"
        className="flex flex-col items-center gap-8 text-center md:flex-row md:text-left"
      >
        <div className="avatar avatar-placeholder">
          <div className="w-36 rounded-full bg-[linear-gradient(135deg,#111827,#dc2626)] text-neutral-content ring-4 ring-primary/20 ring-offset-4 ring-offset-base-100">
            <span className="text-5xl font-extrabold" aria-hidden="true">
              PY
            </span>
          </div>
        </div>
        <div>
          <p className="text-sm font-semibold tracking-[0.2em] text-red-700 uppercase">Portfolio</p>
          <h1 id="intro-title" className="mt-2 text-4xl font-extrabold sm:text-5xl">
            Hi, I build fast, friendly web apps
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-gray-600">
            I am a web developer who enjoys turning real business needs into clear interfaces. I built PartsYard end to
            end: the React storefront, the customer dashboard and the GraphQL API behind them. I care about accessible
            markup, tidy TypeScript and tests that read like specifications.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3 md:justify-start">
            <a href="#projects" className="btn btn-primary">
              See my projects
            </a>
            <Link to="/blog" className="btn btn-outline">
              Read the blog
            </Link>
          </div>
        </div>
      </section>

      <div className="grid gap-8 lg:grid-cols-5">
        <section
          aria-labelledby="skills-title"
          className="card border border-base-300 bg-base-100 shadow-sm lg:col-span-3"
        >
          <div className="card-body gap-5">
            <h2 id="skills-title" className="card-title text-2xl">
              Skills
            </h2>
            <ul className="flex flex-col gap-4">
              {skills.map((skill) => {
                const id = `skill-${skill.name.replace(/\W+/g, '-').toLowerCase()}`;
                return (
                  <li key={skill.name}>
                    <div className="mb-1 flex justify-between text-sm font-medium">
                      <span id={id}>{skill.name}</span>
                      <span className="text-gray-600">{skill.level}%</span>
                    </div>
                    <progress
                      className="progress progress-primary h-3 w-full"
                      value={skill.level}
                      max={100}
                      aria-labelledby={id}
                    />
                  </li>
                );
              })}
            </ul>
          </div>
        </section>

        <section aria-labelledby="about-title" className="card bg-neutral text-neutral-content shadow-xl lg:col-span-2">
          <div className="card-body gap-4">
            <h2 id="about-title" className="card-title text-2xl">
              About me
            </h2>
            <p className="text-neutral-content/80">
              I started with hand-written HTML pages and grew into full-stack work. Today I like the whole path of a
              feature: the data model, the API contract, the screen and the test that keeps it working.
            </p>
            <dl className="grid gap-3">
              {facts.map((f) => (
                <div key={f.label} className="flex flex-col rounded-field bg-white/5 px-4 py-2">
                  <dt className="text-xs tracking-wide text-neutral-content/80 uppercase">{f.label}</dt>
                  <dd className="font-semibold">{f.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>
      </div>

      <section id="projects" aria-labelledby="projects-title">
        <h2 id="projects-title" className="mb-6 text-3xl font-extrabold">
          Projects
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {projects.map((p) => (
            <li key={p.title} className="card border border-base-300 bg-base-100 shadow-sm transition hover:shadow-lg">
              <div className="card-body">
                <h3 className="card-title">{p.title}</h3>
                <p className="text-gray-600">{p.text}</p>
                <ul className="mt-2 flex flex-wrap gap-2" aria-label="Technologies">
                  {p.tags.map((t) => (
                    <li key={t} className="badge badge-outline badge-sm">
                      {t}
                    </li>
                  ))}
                </ul>
                <div className="card-actions mt-4">
                  <Link to={p.to} className="btn btn-primary btn-sm">
                    Open {p.title}
                  </Link>
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
