/**
 * Gives the event loop a turn: resolves on the next macrotask, so that requests and other jobs
 * waiting for the loop run before a long piece of work goes on. `setTimeout` exists in every
 * runtime docsbase supports, so the core needs nothing runtime-specific for it. Never call it in
 * a transaction body: IndexedDB commits a transaction left idle.
 */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
