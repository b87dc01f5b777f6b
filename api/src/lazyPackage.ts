/**
 * A package loaded when it is first used, not when the process starts: for the packages that only some settings
 * or some traffic need (Stripe's SDK, ioredis, nodemailer, graphql-jit), which together cost some 0.3 s of CPU at
 * every start of a process that does not use them (the embedded default, a replica without Redis, most test files).
 * `T` is the package's type, `typeof import('name')`.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  // A plain require: the app runs as CommonJS (tsx, jest), and a dynamic import() would be typed as the package's
  // ECMAScript module, whose types some packages declare apart from their CommonJS ones.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => (loaded ??= require(name) as T);
}
