// Starts the sender thread (sender-thread.ts) from plain JavaScript: a thread does not
// inherit the app's TypeScript loader (`node --import tsx` on Node 20, or a test runner's),
// so unless the entry loads as it is, tsx is registered in the thread first.
try {
  await import('./sender-thread.ts');
} catch (error) {
  if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  const { register } = await import('tsx/esm/api');
  register();
  // A new URL: the failed import above stays cached under the plain one.
  await import('./sender-thread.ts?tsx');
}
