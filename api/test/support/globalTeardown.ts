export default async function globalTeardown(): Promise<void> {
  const emulator = (globalThis as { __authEmulator?: { stop: () => Promise<void> } }).__authEmulator;
  await emulator?.stop();
}
