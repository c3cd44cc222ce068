/**
 * File watching for servers that asked for it (`client/registerCapability` of
 * `workspace/didChangeWatchedFiles`, as pyright does, relying on the client instead of its own
 * watcher): changes below the project root made by anyone are forwarded, batched. Documents
 * Sextant has open are also checked before every query, and closed ones it knows now and then
 * (see documents.ts); this covers the rest, such as a file created by a shell command.
 * @module
 */
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { log } from "../log.ts";

/** Folders whose churn no language server needs to hear about. */
const SKIPPED = /(^|\/)(\.git|\.sextant|\.serena|node_modules|__pycache__|target|\.cache)(\/|$)/;
const BATCH_MS = 50;

export class ProjectWatcher {
  readonly #watcher: Deno.FsWatcher;
  readonly #done: Promise<void>;
  readonly #pending = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Watch `root` recursively; `send` gets LSP `FileEvent`s. Throws when watching is impossible. */
  constructor(
    readonly root: string,
    readonly send: (changes: Array<{ uri: string; type: number }>) => void,
  ) {
    this.#watcher = Deno.watchFs(root, { recursive: true });
    this.#done = this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      for await (const event of this.#watcher) {
        const type = event.kind === "create" ? 1 : event.kind === "remove" ? 3 : 2;
        if (event.kind === "access" || event.kind === "other") continue;
        for (const path of event.paths) {
          const rel = relative(this.root, path).split("\\").join("/");
          if (!rel || rel.startsWith("..") || SKIPPED.test(rel)) continue;
          // A create followed by changes stays a create; a remove wins.
          const before = this.#pending.get(path);
          this.#pending.set(path, before === 1 && type === 2 ? 1 : type);
        }
        if (this.#pending.size > 0) this.#timer ??= setTimeout(() => this.#flush(), BATCH_MS);
      }
    } catch (error) {
      log.debug(`file watcher on ${this.root} ended: ${String(error)}`);
    }
  }

  #flush(): void {
    this.#timer = undefined;
    const changes = [...this.#pending].map(([path, type]) => ({
      uri: pathToFileURL(path).href,
      type,
    }));
    this.#pending.clear();
    if (changes.length > 0) this.send(changes);
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    try {
      this.#watcher.close();
    } catch { /* already closed */ }
    await this.#done;
  }
}
