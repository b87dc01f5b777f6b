// Runs npm scripts side by side (`node scripts/run-together.mjs lint typecheck:projects`), for `npm test`'s static
// checks: each is single-threaded, so two of them use both cores of a two-core machine instead of one after the
// other. Each script's output is kept and printed whole once it ends, one script after the other, so that a
// failure reads as it would alone; the exit code is non-zero when any of them failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (!scripts.length) {
  console.error('usage: node scripts/run-together.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (script) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.stack ?? error}\n`)));
    child.on('close', (code, signal) =>
      resolve({ script, ok: code === 0, code: code ?? signal, seconds: (Date.now() - started) / 1000, output }),
    );
  });

// The order the scripts were named in: each printed once it and the ones before it have ended.
let failed = false;
for (const pending of scripts.map(run)) {
  const { script, ok, code, seconds, output } = await pending;
  process.stdout.write(Buffer.concat(output));
  console.log(`== npm run ${script}: ${ok ? 'passed' : `failed (${code})`} in ${seconds.toFixed(0)} s`);
  failed ||= !ok;
}
process.exit(failed ? 1 : 0);
