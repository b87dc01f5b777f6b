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

class LongestFirst extends Sequencer {
  sort(tests) {
    // As jest's own sort does: the last run's duration, which jest's estimate of the run's time reads.
    for (const test of tests) test.duration = this.time(test);
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const estimate = (test) => {
      const listed = expectedSeconds[path.relative(root, test.path).split(path.sep).join('/')];
      if (listed !== undefined) return listed * 1000;
      return test.duration ?? 0;
    };
    const estimates = new Map(tests.map((test) => [test, estimate(test)]));
    return [...tests].sort((a, b) => estimates.get(b) - estimates.get(a) || size(b) - size(a));
  }
}

module.exports = LongestFirst;
