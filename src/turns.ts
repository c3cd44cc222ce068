/**
 * Synchronous work in turns: file system calls made synchronously (a folder's listing, a small
 * file's read) cost a fraction of their asynchronous form, which pays for an operation sent to
 * another thread each time (typeorm's npm package: 2,996 files read in 36 ms against 77 ms,
 * listed in 3 ms against 20-28 ms). A long run of them would hold the event loop, and with it
 * every other question of the service and the servers' messages: {@linkcode Turns} lets the
 * loop run between turns of a few milliseconds.
 * @module
 */
import { setImmediate } from "node:timers";

/** How long a turn of synchronous work may hold the event loop. */
export const TURN_MS = 4;

/** A run of synchronous steps that gives the event loop its turn every {@linkcode TURN_MS}. */
export class Turns {
  #start = performance.now();
  #steps = 0;

  /**
   * Call between steps: resolves at once while the turn lasts, else after the event loop has
   * run what is ready (I/O, timers, other tasks). Checks the clock every few steps only.
   */
  pause(signal?: AbortSignal): Promise<void> | undefined {
    if ((++this.#steps & 7) !== 0 || performance.now() - this.#start < TURN_MS) return undefined;
    return nextTask().then(() => {
      signal?.throwIfAborted();
      this.#start = performance.now();
    });
  }
}

/** Run `step` over `items` synchronously, in turns (see {@linkcode Turns}). */
export async function inTurns<T>(
  items: Iterable<T>,
  step: (item: T) => void,
  signal?: AbortSignal,
): Promise<void> {
  const turns = new Turns();
  for (const item of items) {
    step(item);
    await turns.pause(signal);
  }
}

/**
 * Resolves once the event loop has polled what is ready (I/O, timers): an immediate, which runs
 * after them. Neither a timer of 0 ms (held back to 1-4 ms once timers nest, which they do in a
 * loop of them) nor a message through a MessageChannel (delivered without a turn of the loop once
 * `node:worker_threads` is loaded, as Sextant's dependencies do) would do.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
