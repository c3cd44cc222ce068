/**
 * Code mode's processes, by session and `session` id, under two caps: at most
 * {@linkcode REPL_PER_SESSION} running children per MCP session and {@linkcode REPL_PER_SERVICE}
 * in the whole process (one process is one service, or one standalone session). Each child holds
 * at most its data limit (host.ts `DATA_LIMIT_MB`), so the caps bound what code mode can take of
 * the machine.
 * A new child past a cap stops the least recently used idle one (its next answer says that its
 * variables were reset); when every one is running a cell, the new one is refused.
 *
 * It also links code mode to the front across service restarts: calls made inside `repl` that
 * change the session (the active project, the modes) are told to whoever listens (the MCP wiring
 * tells the front, which repeats them to a restarted service), and a session whose service was
 * restarted under it hears, per `session` id, that its variables were reset.
 * @module
 */
import { ReplProcess, type ReplSlots } from "./host.ts";

/** Running code-mode children per MCP session. */
export const REPL_PER_SESSION = 4;
/** Running code-mode children per service (per process). */
export const REPL_PER_SERVICE = 16;

/** What owns the children: they end when it is disposed (a session). */
export interface ReplOwner {
  own(resource: { dispose(): Promise<void> }): void;
}

/** Told of a successful call inside code mode that changed the session. */
export type StateListener = (tool: string, args: Record<string, unknown>) => void;

/** Tools whose success changes the session (its active project, its modes). */
export const STATE_TOOLS: ReadonlySet<string> = new Set(["activate_project", "switch_modes"]);

export interface ReplPoolLimits {
  perSession?: number;
  perService?: number;
}

/** The code-mode processes of one Sextant process; see the module comment. */
export class ReplPool implements ReplSlots {
  readonly #perSession: number;
  readonly #perService: number;
  readonly #byOwner = new WeakMap<ReplOwner, Map<string, ReplProcess>>();
  /** Processes whose child runs (or starts). */
  readonly #live = new Set<ReplProcess>();
  /** Sessions whose earlier service was restarted under them; see {@linkcode markRestarted}. */
  readonly #restarted = new WeakSet<ReplOwner>();
  readonly #stateListeners = new WeakMap<ReplOwner, StateListener>();

  constructor(limits: ReplPoolLimits = {}) {
    this.#perSession = limits.perSession ?? REPL_PER_SESSION;
    this.#perService = limits.perService ?? REPL_PER_SERVICE;
  }

  /** Running children, in all sessions. */
  get running(): number {
    return this.#live.size;
  }

  /**
   * The session's front says that the service it used before was restarted: each `session` id's
   * first answer in this service says that its variables (and modes switched inside code mode
   * before the restart, unless the front could tell the new service) were reset.
   */
  markRestarted(owner: ReplOwner): void {
    this.#restarted.add(owner);
  }

  /** Tell `listener` of each call inside code mode that changed the session (see the module). */
  onStateCall(owner: ReplOwner, listener: StateListener): void {
    this.#stateListeners.set(owner, listener);
  }

  /** A call inside code mode changed the session: `tool` succeeded with `args`. */
  stateCall(owner: ReplOwner, tool: string, args: Record<string, unknown>): void {
    this.#stateListeners.get(owner)?.(tool, args);
  }

  /** The process of an owner (session) and `session` id, created on first use, ended with it. */
  process(owner: ReplOwner, id: string): ReplProcess {
    let byId = this.#byOwner.get(owner);
    if (!byId) {
      const created = new Map<string, ReplProcess>();
      byId = created;
      this.#byOwner.set(owner, created);
      owner.own({
        dispose: async () => {
          const all = [...created.values()];
          created.clear();
          await Promise.all(all.map((p) => p.terminate()));
        },
      });
    }
    let process = byId.get(id);
    if (!process) {
      process = new ReplProcess(owner, this);
      if (this.#restarted.has(owner)) {
        process.noteReset(
          "the Sextant service restarted since this session's earlier calls, so its code-mode " +
            "state (variables) was reset; the active project and modes were restored",
        );
      }
      byId.set(id, process);
    }
    return process;
  }

  admit(process: ReplProcess): void {
    const mine = [...this.#live].filter((p) => p.owner === process.owner && p !== process);
    if (mine.length >= this.#perSession) {
      this.#evictOne(mine, `at most ${this.#perSession} code-mode processes run per MCP session`);
    }
    const all = [...this.#live].filter((p) => p !== process);
    if (all.length >= this.#perService) {
      this.#evictOne(all, `at most ${this.#perService} code-mode processes run in the service`);
    }
    this.#live.add(process);
  }

  release(process: ReplProcess): void {
    this.#live.delete(process);
  }

  #evictOne(candidates: ReplProcess[], cap: string): void {
    const idle = candidates.filter((p) => !p.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!idle) {
      throw new Error(
        `No code-mode process can start: ${cap}, and every one is running a cell. ` +
          "Call again when one has answered.",
      );
    }
    this.#live.delete(idle);
    void idle.evict(
      `its process was stopped to make room for another code-mode session (${cap}), ` +
        "so this session's variables were reset",
    );
  }
}

/** The process's one pool (a process is one service, or one standalone session). */
export const replPool = new ReplPool();

/** The child of an owner (session) and `session` id, created on first use, ended with it. */
export function replProcess(owner: ReplOwner, id: string): ReplProcess {
  return replPool.process(owner, id);
}
