// The order `npm test` starts its test files in: the longest first, so that the last files to start are short and
// both workers end at about the same time (a 200 s suite started last would leave one core idle for most of it).
//
// Jest's own order does this only from its cache of the last run's durations, which a fresh machine (CI) does not
// have: it falls back to file size, and a cache that knows some files and not others runs the known ones LAST.
// Here every file gets an estimate: the seconds below (measured whole, 2026-11-28, some scaled from a loaded run; only the order matters, so they
// need no care beyond "about this long"), else the cache's duration, else 0; ties go by file size.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const root = path.resolve(__dirname, '..');

/** Seconds a file takes within a whole run, for the files that take longest. */
const expectedSeconds = {
  'api/test/lifecycle.test.ts': 200,
  'e2e/a11y.e2e.test.ts': 160,
  'e2e/admin.e2e.test.ts': 80,
  'api/test/start.test.ts': 75,
  'api/test/reliability/races.test.ts': 72,
  'api/test/cluster.test.ts': 70,
  'api/test/reliability/faults.test.ts': 70,
  'api/test/expiry.test.ts': 66,
  'e2e/identity.e2e.test.ts': 65,
  'e2e/storefront.e2e.test.ts': 64,
  'e2e/cart.e2e.test.ts': 62,
  'api/test/security/rateLimits.test.ts': 60,
  'api/test/operable.test.ts': 55,
  'api/test/performance/answerCacheMemory.test.ts': 52,
  'api/test/replicas.test.ts': 50,
  'api/test/services/accounts.test.ts': 47,
  'api/test/reliability/expiryRaces.test.ts': 46,
  'api/test/security/rights.test.ts': 40,
  'e2e/catalog.e2e.test.ts': 40,
  'e2e/partPage.e2e.test.ts': 40,
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
