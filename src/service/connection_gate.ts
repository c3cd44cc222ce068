/**
 * The door of a listener that anyone on the machine can reach: how many connections it keeps
 * before they authenticate and after, and an accept loop that survives running out of file
 * descriptors. Every local user can connect to a loopback port, so without a cap a flood of
 * silent connections would take every descriptor of the process, and the accept loop would fail
 * and end the process for every session.
 * @module
 */
import { log } from "../log.ts";

/** Options of {@linkcode ConnectionGate}. */
export interface GateLimits {
  /**
   * Connections kept open before they show the token. One past it closes the oldest of them, so a
   * flood cannot lock a real front out: it connects and speaks at once, and stays the newest.
   */
  maxUnauthenticated: number;
  /** Authenticated connections kept open at once; one past it is refused. */
  maxAuthenticated: number;
}

/** Counts the connections of one listener and enforces {@linkcode GateLimits}. */
export class ConnectionGate {
  readonly limits: GateLimits;
  /** Unauthenticated connections, oldest first (a Set keeps insertion order). */
  readonly #waiting = new Set<Deno.Conn>();
  /** Closed by the gate, and still read by their server until it sees the close. */
  readonly #closing = new Set<Deno.Conn>();
  readonly #authenticated = new Set<Deno.Conn>();
  /** Accept loops waiting for {@linkcode ConnectionGate.room}. */
  #roomWaiters: Array<() => void> = [];
  /** How many connections were closed or refused at a cap, for the log's summary. */
  #turnedAway = 0;

  constructor(limits: GateLimits) {
    this.limits = limits;
  }

  /** A new connection: counted as unauthenticated, closing the oldest such past the cap. */
  admit(conn: Deno.Conn): void {
    if (this.#waiting.size >= this.limits.maxUnauthenticated) {
      const oldest = this.#waiting.values().next().value!;
      this.#waiting.delete(oldest);
      this.#closing.add(oldest);
      this.#note();
      close(oldest);
    }
    this.#waiting.add(conn);
  }

  /**
   * Resolves when another connection may be accepted: connections closed while a read of theirs
   * is pending keep their descriptor until that read ends, so while as many as the cap are still
   * closing, the next connection waits in the system's listen queue (which costs no descriptor).
   */
  room(): Promise<void> {
    if (this.#closing.size < this.limits.maxUnauthenticated) return Promise.resolve();
    return new Promise((resolve) => this.#roomWaiters.push(resolve));
  }

  /**
   * The connection showed the token: counted as authenticated, or false when the cap of
   * authenticated connections is reached (the caller refuses it with a message).
   */
  authenticate(conn: Deno.Conn): boolean {
    this.#waiting.delete(conn);
    if (this.#authenticated.size >= this.limits.maxAuthenticated) {
      this.#note();
      return false;
    }
    this.#authenticated.add(conn);
    return true;
  }

  /** The connection is closed (or is being closed): it no longer counts. */
  release(conn: Deno.Conn): void {
    this.#waiting.delete(conn);
    this.#closing.delete(conn);
    this.#authenticated.delete(conn);
    if (this.#closing.size < this.limits.maxUnauthenticated && this.#roomWaiters.length > 0) {
      const waiters = this.#roomWaiters;
      this.#roomWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  get unauthenticated(): number {
    return this.#waiting.size + this.#closing.size;
  }

  get authenticated(): number {
    return this.#authenticated.size;
  }

  #note(): void {
    // One line per power of two, so a flood leaves a trace in the log without filling it.
    this.#turnedAway++;
    if ((this.#turnedAway & (this.#turnedAway - 1)) === 0) {
      log.warn(
        `connections turned away at the caps: ${this.#turnedAway} so far (at most ` +
          `${this.limits.maxUnauthenticated} before the token, ${this.limits.maxAuthenticated} ` +
          "after)",
      );
    }
  }
}

/**
 * The caps for a process that may have `limit` file descriptors open (null: unknown), so that
 * connections alone never use them all: Deno itself can fail hard when it runs out (a panic,
 * seen in Deno 2.9 under `ulimit -n 48`), which would end every session. Connections get at most
 * a quarter of the descriptors, the rest stays for language servers, files and Deno.
 */
export function limitsFor(wanted: GateLimits, limit: number | null): GateLimits {
  if (limit === null) return wanted;
  const share = Math.max(3, Math.floor(limit / 4));
  // Unauthenticated connections count twice: as many again may be closing (ConnectionGate.room).
  const unauthenticated = Math.max(1, Math.min(wanted.maxUnauthenticated, Math.floor(share / 4)));
  return {
    maxUnauthenticated: unauthenticated,
    maxAuthenticated: Math.max(1, Math.min(wanted.maxAuthenticated, share - 2 * unauthenticated)),
  };
}

/**
 * This process's soft limit of open file descriptors, as a shell it starts inherits it (Deno's
 * permissions keep `/proc` out of reach); null where unknown or unlimited.
 */
export function descriptorLimit(): number | null {
  if (Deno.build.os === "windows") return null;
  try {
    const out = new Deno.Command("sh", {
      args: ["-c", "ulimit -n"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const limit = Number(new TextDecoder().decode(out.stdout).trim());
    return out.success && Number.isInteger(limit) && limit > 0 ? limit : null;
  } catch {
    return null;
  }
}

function close(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}

/** Whether an error is the process (or the system) running out of file descriptors. */
export function isOutOfDescriptors(error: unknown): boolean {
  return /os error (23|24)\b|too many open files/i.test(String((error as Error)?.message ?? error));
}

/** The longest pause of {@linkcode acceptConnections} after failed accepts (ms). */
const MAX_ACCEPT_PAUSE_MS = 1000;

/**
 * Accept connections of `listener` until it is closed, handing each to `serve`. A failed accept
 * never ends the loop: out of descriptors, the connection waiting is accepted with a descriptor
 * kept in reserve for that and closed at once (refused, so its client does not hang), and the
 * loop pauses a little longer after each failure in a row.
 */
export async function acceptConnections<C extends Deno.Conn>(
  listener: Deno.Listener<C>,
  serve: (conn: C) => void,
  room: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  let reserve = openReserve();
  let pause = 0;
  let failures = 0;
  // An accept started while out of descriptors and not yet answered: the loop's next accept.
  let started: Promise<C> | null = null;
  for (;;) {
    let conn: C;
    await room();
    try {
      conn = await (started ?? listener.accept());
      started = null;
    } catch (error) {
      started = null;
      if (error instanceof Deno.errors.BadResource || error instanceof Deno.errors.Interrupted) {
        reserve?.close();
        return;
      }
      failures++;
      if ((failures & (failures - 1)) === 0) {
        log.warn(`accepting a connection failed (${failures} in a row):`, error);
      }
      if (isOutOfDescriptors(error) && reserve !== null) {
        reserve.close();
        reserve = null;
        const next = listener.accept();
        // The connection that failed is normally still waiting; should it be gone, the accept
        // stays pending and serves the next connection as usual.
        const refused = await Promise.race([next, delay(100).then(() => null)]).catch(() => null);
        if (refused !== null) close(refused);
        else started = next;
        reserve = openReserve();
      }
      pause = Math.min(MAX_ACCEPT_PAUSE_MS, Math.max(10, pause * 2));
      await delay(pause);
      continue;
    }
    pause = 0;
    failures = 0;
    serve(conn);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A descriptor held so that one can be freed when the process has run out. */
function openReserve(): Deno.FsFile | null {
  try {
    return Deno.openSync(Deno.build.os === "windows" ? "NUL" : "/dev/null", { read: true });
  } catch {
    return null;
  }
}
