import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/** V8's full collection: `globalThis.gc` under `--expose-gc`, else the one a new context gets with the flag set for a moment. */
function fullCollection(): () => void {
  if (collect) return collect;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return (collect = exposed);
  v8.setFlagsFromString('--expose-gc');
  try {
    collect = vm.runInNewContext('gc') as () => void;
  } finally {
    v8.setFlagsFromString('--no-expose-gc'); // other contexts, and this process's global, stay without it
  }
  return collect;
}

/**
 * A ceiling on the V8 heap for a long bulk job (an import of millions of lines): {@link check},
 * called between units of work, runs a full garbage collection when the heap in use has grown
 * more than `budgetBytes` above what it was when the ceiling was made.
 *
 * Why: a bulk job's batches live across many asynchronous turns, so their objects survive the
 * young-generation collections and are promoted to the old generation, which V8 lets grow to
 * about 100 MB past the live set before it collects it on a machine with a few GiB (its limit
 * scales with the memory it may use). An import of 100,000 users then held the server's resident
 * memory near 300 MB though its live data never passed 60 MB. One full collection per `budgetBytes`
 * of promoted garbage (about 20–40 ms each, a few per 100,000 users) keeps it flat at the budget
 * without a process-wide heap flag, which would also cap every other request.
 */
export class HeapCeiling {
  readonly #budget: number;
  #limit: number;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
    this.#limit = v8.getHeapStatistics().used_heap_size + budgetBytes;
  }

  /**
   * Collects now when the heap in use is above the ceiling. When what survives is itself above
   * it (other requests' data), the ceiling rises to the survivors plus the budget, so a busy
   * server is never collected batch after batch. @returns whether it collected.
   */
  check(): boolean {
    if (v8.getHeapStatistics().used_heap_size <= this.#limit) return false;
    fullCollection()();
    this.#limit = Math.max(this.#limit, v8.getHeapStatistics().used_heap_size + this.#budget);
    return true;
  }
}
