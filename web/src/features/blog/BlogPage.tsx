interface Article {
  id: string;
  question: string;
  answer: string[];
}

/** Seven static questions and answers on web development (spec §2). */
export const articles: Article[] = [
  {
    id: 'react-performance',
    question: 'How can you improve the performance of a React application?',
    answer: [
      'Measure first: the React DevTools Profiler shows which components render, how often and how long they take, so you fix real bottlenecks instead of guessed ones.',
      'Then avoid work React does not need to do. Keep state as close as possible to the components that use it, so an update re-renders a small subtree. Wrap expensive pure components in React.memo and keep the props they receive stable with useMemo and useCallback. Give list items stable keys, and render long lists with virtualization so only the visible rows exist in the DOM.',
      'Finally, ship less code: split the bundle by route with React.lazy and dynamic import(), lazy-load images, and build for production so development-only checks are stripped.',
    ],
  },
  {
    id: 'prototypal-inheritance',
    question: 'How does prototypal inheritance work?',
    answer: [
      'Every JavaScript object has a hidden link, [[Prototype]], to another object (or to null). When you read a property the object does not have itself, the engine follows that link and looks on the prototype, then on its prototype, and so on up the prototype chain until it finds the property or reaches null and answers undefined.',
      'Objects therefore share behaviour by delegating to a common prototype rather than copying it. Object.create(proto) makes an object whose prototype is proto; a function called with new gives the new object the function’s prototype property as its prototype; and the class syntax is a more readable layer over the same mechanism. Writing a property always creates or changes it on the object itself, which is how an object can shadow what it inherits.',
    ],
  },
  {
    id: 'react-state-management',
    question: 'What are the different ways to manage state in a React application?',
    answer: [
      'Local state with useState or useReducer covers most UI state: a form’s values, whether a menu is open. When siblings need the same value, lift the state up to their closest common parent and pass it down as props.',
      'For values many components need, such as the signed-in user or a theme, the Context API avoids passing props through every level. Larger apps with complex, frequently changing global state often use a store library such as Redux Toolkit, Zustand, Jotai or MobX.',
      'Server data is its own kind of state: libraries like Apollo Client, TanStack Query or SWR fetch, cache and refresh it for you. And some state belongs in the URL (search terms, the current page) so it survives a reload and can be shared as a link.',
    ],
  },
  {
    id: 'set-state-directly',
    question: 'Why should you not set the state directly in React?',
    answer: [
      'React only knows that something changed when you call the state setter (or dispatch to a reducer). If you assign to a state variable or mutate a state object in place, React is not told, so the component does not re-render and the screen shows stale data.',
      'Mutation also breaks the comparisons React relies on: it decides whether to re-render memoized components, and whether effects should run, by comparing references. An object mutated in place keeps the same reference, so those checks see no change. State updates are also batched and applied on the next render, so code that mutates state and reads it back immediately can act on inconsistent values. Always create a new value, for example setItems([...items, item]), and use the updater form setCount(c => c + 1) when the next value depends on the previous one.',
    ],
  },
  {
    id: 'what-is-a-unit-test',
    question: 'What is a unit test?',
    answer: [
      'A unit test checks one small, isolated piece of code, a “unit” such as a function, a class or a single component, and asserts that it produces the expected result for a given input.',
      'Unit tests run fast and automatically with a test runner such as Jest or Vitest. Anything outside the unit that would make the test slow or unpredictable, such as a network call, a database or the clock, is replaced with a stub or mock, so a failure points straight at the unit under test. A typical test follows the arrange–act–assert pattern: set up the input, call the code, and check the outcome.',
    ],
  },
  {
    id: 'why-unit-tests',
    question: 'Why should you write unit tests?',
    answer: [
      'Unit tests catch bugs early, when they are cheapest to fix, and they keep catching them: every later change is checked against the behaviour you already verified, so you can refactor with confidence instead of fear.',
      'They also document the code. A well-named test such as “rejects an order below the minimum quantity” tells the next developer what the unit is supposed to do, and stays true because it runs. Writing tests pushes you towards small, loosely coupled functions that are easier to understand and reuse, and running them in continuous integration stops regressions before they reach users.',
    ],
  },
  {
    id: 'virtual-dom',
    question: 'How does the virtual DOM work?',
    answer: [
      'The virtual DOM is a lightweight description of the UI kept in memory as plain JavaScript objects. When a React component renders, it returns such a description (React elements) rather than touching the real DOM.',
      'When state or props change, React renders again to produce a new tree and compares it with the previous one, a process called reconciliation. Its diffing assumes that elements of a different type produce different trees and uses keys to match list items, which keeps the comparison fast. React then applies only the minimal set of changes to the real DOM in one commit. Because real DOM updates and the layout work they trigger are comparatively expensive, batching and minimising them keeps the interface responsive while you write code as if the whole UI were re-rendered.',
    ],
  },
];

/** 'Blog': seven static question-and-answer articles. */
export default function BlogPage() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <header className="mb-10 text-center">
        <p className="text-sm font-semibold tracking-[0.2em] text-red-700 uppercase">Questions & answers</p>
        <h1 className="mt-2 text-4xl font-extrabold sm:text-5xl">Blog</h1>
        <p className="mx-auto mt-4 max-w-2xl text-gray-600">
          Short, practical answers to questions about React, JavaScript and testing that come up while building a shop
          like this one.
        </p>
      </header>

      <nav aria-label="Articles" className="mb-10 rounded-box bg-base-200 p-6">
        <h2 className="mb-3 font-bold">In this blog</h2>
        <ol className="list-decimal space-y-1 pl-5">
          {articles.map((a) => (
            <li key={a.id}>
              <a href={`#${a.id}`} className="link link-hover">
                {a.question}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="flex flex-col gap-8">
        {articles.map((a, i) => (
          <article
            key={a.id}
            id={a.id}
            aria-labelledby={`${a.id}-title`}
            className="card scroll-mt-24 border border-base-300 bg-base-100 shadow-sm"
          >
            <div className="card-body gap-4">
              <p className="text-sm font-semibold text-primary">Question {i + 1}</p>
              <h2 id={`${a.id}-title`} className="card-title text-2xl leading-snug">
                {a.question}
              </h2>
              {a.answer.map((paragraph) => (
                <p key={paragraph.slice(0, 40)} className="leading-relaxed text-gray-700">
                  {paragraph}
                </p>
              ))}
            </div>
          </article>
        ))}
      </div>
    </div>
  );
}
