/**
 * A project watcher for tests that stage what the kernel's watcher may do: Deno's own watcher,
 * without the events of the paths a test drops, plus the events it adds (a lost-events
 * `rescan`). Given to ProjectWatch as its `OpenWatcher`.
 * @module
 */
import type { OpenWatcher } from "../../src/project/project_watch.ts";

/**
 * Deno's watcher, without the events of paths `drop` picks (an event all of whose paths are
 * dropped is dropped), plus events added by `inject`.
 */
export function lossyWatcher(
  drop: (path: string) => boolean = () => false,
): { open: OpenWatcher; inject: (event: Deno.FsEvent) => void } {
  const queue: Deno.FsEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (event: Deno.FsEvent) => {
    queue.push(event);
    wake?.();
  };
  const open: OpenWatcher = (root, options) => {
    const real = Deno.watchFs(root, options);
    let ended = false;
    const pump = (async () => {
      for await (const event of real) {
        const paths = event.paths.filter((path) => !drop(path));
        if (paths.length > 0 || event.paths.length === 0) push({ ...event, paths });
      }
      ended = true;
      wake?.();
    })();
    return {
      close: () => real.close(),
      [Symbol.dispose]: () => real.close(),
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const next = queue.shift();
          if (next) {
            yield next;
            continue;
          }
          if (ended) return void await pump;
          await new Promise<void>((resolve) => wake = resolve);
          wake = null;
        }
      },
    };
  };
  return { open, inject: push };
}
