/**
 * What a project remembers of the checks for errors its edits introduced (the report is
 * tools/new_errors.ts): each file's errors at the text and write they were found for, the files
 * found importing a set of written files, the checks still running, and how long an edit waits
 * for them. One {@linkcode EditChecks} per project (`ProjectServices.editChecks`), shared by
 * every session on it: a session's edit may be compared with errors another session's check
 * found, and a write waits for the checks other sessions started on the same project.
 *
 * It holds results and knows nothing of tools or sessions; the errors it keeps are
 * error_identity.ts's, found by the project's language servers.
 * @module
 */
import type { FileErrors } from "./error_identity.ts";

/**
 * How long an edit's answer waits for its report by default (`report_new_diagnostics: true`);
 * a report not ready by then comes with the session's next answer.
 */
export const REPORT_WAIT_MS = 2_000;
/**
 * How long a write waits for the errors of its files before it (those the previous check did
 * not leave); a file not checked by then has no "before".
 */
export const BASELINE_WAIT_MS = 2_000;
/** How long the errors found after an edit serve as the "before" of the next one. */
const ERRORS_REUSE_MS = 60_000;
/**
 * How long the importers found for a write serve the next write of the same files, when nothing
 * else was written since: as long as the import index's own file list (toolchain/graph/importers.ts).
 */
const IMPORTERS_REUSE_MS = 10_000;
/** Files whose errors are remembered; past it, all are forgotten. */
const MAX_REMEMBERED_FILES = 500;
/** Sets of written files whose importers are remembered; past it, all are forgotten. */
const MAX_REMEMBERED_IMPORTERS = 100;

/** How long an edit waits for its report, and for its files' errors before it. */
export interface EditCheckWaits {
  reportMs: number;
  baselineMs: number;
}

/** The errors last found in one file. */
interface FoundErrors {
  /** The file's text the server checked. */
  text: string;
  /** The count of writes when the server was asked. */
  generation: number;
  /** When they were found (ms since the epoch). */
  at: number;
  errors: FileErrors;
}

/** The importers last found for a set of written files. */
interface FoundImporters {
  generation: number;
  /** When the search started (`performance.now()`). */
  at: number;
  importers: string[];
}

/** One project's record of the checks around its edits. */
export class EditChecks {
  /** Counts the writes through the write path: what was found before a later write is stale. */
  #generation = 0;
  /** By project-relative path. */
  readonly #errors = new Map<string, FoundErrors>();
  /** By the written files' paths, joined. */
  readonly #importers = new Map<string, FoundImporters>();
  /** The checks still running (each settles, never rejects). */
  readonly #running = new Set<Promise<void>>();
  #waits: EditCheckWaits = { reportMs: REPORT_WAIT_MS, baselineMs: BASELINE_WAIT_MS };

  /** The count of writes so far. */
  get generation(): number {
    return this.#generation;
  }

  /** The write path committed a change to the project (whatever tool made it). */
  noteWrite(): void {
    this.#generation++;
  }

  /** How long an edit waits for its report and for its files' errors before it. */
  get waits(): Readonly<EditCheckWaits> {
    return this.#waits;
  }

  /**
   * Change the waits (tests: a report wait of 0 always defers the report to the next answer, a
   * long one keeps a busy machine from deferring it; a baseline wait of 0 asks for no "before"
   * the previous check did not leave). Returns a function restoring the old ones.
   */
  setWaits(waits: Partial<EditCheckWaits>): () => void {
    const old = this.#waits;
    this.#waits = { ...old, ...waits };
    return () => this.#waits = old;
  }

  /**
   * The errors last found in `relPath`, when they were found in `text`, nothing was written to
   * the project since and they are recent; null otherwise.
   */
  reusableErrors(relPath: string, text: string): FileErrors | null {
    const last = this.#errors.get(relPath);
    if (
      last && last.text === text && last.generation === this.#generation &&
      Date.now() - last.at < ERRORS_REUSE_MS
    ) {
      return last.errors;
    }
    return null;
  }

  /** Remember the errors of `relPath` found in `text`, asked for when the count of writes was `generation`. */
  rememberErrors(relPath: string, text: string, generation: number, errors: FileErrors): void {
    if (this.#errors.size > MAX_REMEMBERED_FILES) this.#errors.clear();
    this.#errors.set(relPath, { text, generation, at: Date.now(), errors });
  }

  /** The importers last found for the files `key` names, when nothing was written since and they are recent. */
  reusableImporters(key: string): string[] | null {
    const memo = this.#importers.get(key);
    if (
      memo && memo.generation === this.#generation &&
      performance.now() - memo.at < IMPORTERS_REUSE_MS
    ) {
      return memo.importers;
    }
    return null;
  }

  /** Remember the importers of the files `key` names, found by a search started at `at`. */
  rememberImporters(key: string, importers: string[], at: number): void {
    if (this.#importers.size > MAX_REMEMBERED_IMPORTERS) this.#importers.clear();
    this.#importers.set(key, { generation: this.#generation, at, importers });
  }

  /**
   * A write changed the files `key` names: when it moved nothing, who imports them is still
   * known (they stay valid past this write); a move forgets them.
   */
  importersAfterWrite(key: string, moved: boolean): void {
    const memo = this.#importers.get(key);
    if (memo && !moved) memo.generation = this.#generation;
    else this.#importers.delete(key);
  }

  /** A check started after a write; {@linkcode settled} waits for it. */
  track(check: Promise<void>): void {
    this.#running.add(check);
    void check.finally(() => this.#running.delete(check));
  }

  /** Resolves when the checks started after earlier writes have finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.#running]);
  }
}
