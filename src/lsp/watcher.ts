/**
 * File watching for servers that asked for it (`client/registerCapability` of
 * `workspace/didChangeWatchedFiles`, as pyright does, relying on the client instead of its own
 * watcher): changes below the project root made by anyone are forwarded, batched. Documents
 * Sextant has open are also checked before every query, and closed ones it knows now and then
 * (see documents.ts); this covers the rest, such as a file created by a shell command.
 *
 * The events come from the project's one watcher (project_watch.ts), subscribed to only while a
 * server asked for them.
 * @module
 */
import { pathToFileURL } from "node:url";
import { ProjectWatch, type WatchEvent } from "../project/project_watch.ts";

/** Folders whose churn no language server needs to hear about. */
const SKIPPED = /(^|\/)(\.git|\.sextant|\.serena|node_modules|__pycache__|target|\.cache)(\/|$)/;
const BATCH_MS = 50;

export class ProjectWatcher {
  readonly root: string;
  readonly #watch: ProjectWatch;
  readonly #ownWatch: boolean;
  readonly #unsubscribe: () => void;
  readonly #pending = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Forward the events of `watch`, the project's shared watcher (started now if nobody did), or,
   * given a root, of a watcher of its own; `send` gets LSP `FileEvent`s. Throws when watching is
   * impossible.
   */
  constructor(
    watch: ProjectWatch | string,
    readonly send: (changes: Array<{ uri: string; type: number }>) => void,
  ) {
    this.#ownWatch = typeof watch === "string";
    this.#watch = typeof watch === "string" ? new ProjectWatch(watch) : watch;
    this.root = this.#watch.root;
    this.#unsubscribe = this.#watch.subscribe({ event: (event) => this.#noticed(event) });
    if (!this.#watch.start()) {
      this.#unsubscribe();
      if (this.#ownWatch) void this.#watch.dispose();
      throw new Error(`${this.root} cannot be watched.`);
    }
  }

  #noticed(event: WatchEvent): void {
    if (event.kind === "other") return;
    const type = event.kind === "create" ? 1 : event.kind === "remove" ? 3 : 2;
    event.rels.forEach((rel, i) => {
      if (!rel || rel.startsWith("..") || SKIPPED.test(rel)) return;
      const path = event.paths[i]!;
      // A create followed by changes stays a create; a remove wins.
      const before = this.#pending.get(path);
      this.#pending.set(path, before === 1 && type === 2 ? 1 : type);
    });
    if (this.#pending.size > 0) this.#timer ??= setTimeout(() => this.#flush(), BATCH_MS);
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

  /** Stop forwarding (and stop the watcher, when it is this forwarder's own). */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe();
    if (this.#ownWatch) await this.#watch.dispose();
  }
}
