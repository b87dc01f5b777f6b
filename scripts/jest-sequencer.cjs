// The order `npm test` starts its test files in: the longest first, so that the last files to start are short and
// both workers end at about the same time (a 200 s suite started last would leave one core idle for most of it).
//
// Jest's own order does this only from its cache of the last run's durations, which a fresh machine (CI) does not
// have: it falls back to file size, and a cache that knows some files and not others runs the known ones LAST.
// Here every file gets an estimate: the seconds below (measured in a whole quiet run, 2026-11-28; only the order matters, so they
// need no care beyond "about this long"), else the cache's duration, else 0; ties go by file size.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const root = path.resolve(__dirname, '..');

/** Seconds a file takes within a whole run, for the files that take longest. */
const expectedSeconds = {
  'e2e/a11y.e2e.test.ts': 187,
  'api/test/lifecycle.test.ts': 150,
  'e2e/admin.e2e.test.ts': 90,
  'api/test/cluster.test.ts': 74,
  'api/test/reliability/races.test.ts': 70,
  'e2e/storefront.e2e.test.ts': 68,
  'api/test/expiry.test.ts': 56,
  'api/test/reliability/faults.test.ts': 55,
  'e2e/orderEmails.e2e.test.ts': 49,
  'e2e/expiry.e2e.test.ts': 47,
  'e2e/cart.e2e.test.ts': 46,
  'e2e/identity.e2e.test.ts': 45,
  'api/test/start.test.ts': 45,
  'e2e/garage.e2e.test.ts': 44,
  'api/test/security/rights.test.ts': 44,
  'api/test/security/rateLimits.test.ts': 42,
  'api/test/migrations.test.ts': 36,
  'api/test/unpaidCap.test.ts': 35,
  'e2e/shopping.e2e.test.ts': 35,
  'e2e/session.e2e.test.ts': 34,
  'api/test/services/accounts.test.ts': 33,
  'e2e/smoke.e2e.test.ts': 33,
};

const relative = (test) => path.relative(root, test.path).split(path.sep).join('/');

class LongestFirst extends Sequencer {
  sort(tests) {
    // As jest's own sort does: the last run's duration, which jest's estimate of the run's time reads.
    for (const test of tests) test.duration = this.time(test);
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const estimate = (test) => {
      const listed = expectedSeconds[relative(test)];
      if (listed !== undefined) return listed * 1000;
      return test.duration ?? 0;
    };
    const estimates = new Map(tests.map((test) => [test, estimate(test)]));
    const sorted = [...tests].sort((a, b) => estimates.get(b) - estimates.get(a) || size(b) - size(a));
    // The lifecycle suite times idle stops to the millisecond (within 1,000 ms of the signal): while it runs, the
    // other worker runs API suites rather than a browser journey (a Chromium beside it took the Ctrl-C stop past a
    // second twice in three quiet runs). It starts first, and the browser journeys wait until the API suites
    // started beside it add up to its length.
    const timed = sorted.find((test) => relative(test) === 'api/test/lifecycle.test.ts');
    if (!timed) return sorted;
    const isBrowser = (test) => relative(test).startsWith('e2e/');
    const beside = [];
    let covered = 0;
    for (const test of sorted) {
      if (covered >= estimates.get(timed)) break;
      if (test === timed || isBrowser(test)) continue;
      beside.push(test);
      covered += estimates.get(test);
    }
    const first = new Set([timed, ...beside]);
    return [timed, ...beside, ...sorted.filter((test) => !first.has(test))];
  }
}

module.exports = LongestFirst;
