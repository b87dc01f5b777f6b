// Preloaded (`node --require scripts/emulator-lazy-validation.cjs ...`) into the Firebase Auth Emulator that
// scripts/auth-emulator.cjs starts. The emulator's REST API is built with exegesis from the Identity Toolkit's
// OpenAPI document, and exegesis compiles a JSON-schema validator for every operation's request and responses
// before the emulator answers: about two thirds of its start, some 8 s of CPU each time (12.9 s in all, ready
// after 11.5 s; 4.3 s and 3.6 s with this). exegesis can instead compile each validator when its operation is
// first called (its `lazyCompileValidationSchemas` option), which firebase-tools does not ask for: this makes it
// the default. The same validators check the same requests. If firebase-tools no longer has exegesis where it
// did, nothing is changed and the emulator only starts slower (api/test/authEmulator.test.ts notices).
const path = require('node:path');

function lazyValidation() {
  const firebaseTools = path.dirname(require.resolve('firebase-tools/package.json'));
  let options;
  try {
    options = require(require.resolve('exegesis/lib/options.js', { paths: [firebaseTools] }));
  } catch {
    return false;
  }
  const compileOptions = options.compileOptions;
  if (typeof compileOptions !== 'function') return false;
  options.compileOptions = (given = {}) => compileOptions({ lazyCompileValidationSchemas: true, ...given });
  return true;
}

module.exports = { applied: lazyValidation() };
