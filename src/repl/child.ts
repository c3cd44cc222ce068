/**
 * The code-mode child process: runs one session's cells in a process of its own with no Deno
 * permissions, so that a runaway allocation or loop ends that process and nothing else (the host,
 * src/repl/host.ts, caps and kills it). Its program is one self-contained function,
 * {@linkcode replChildMain}, that `deno run` starts from a `data:` URL of its source text: no
 * Sextant module is loaded in the child (a loaded module could be imported again by the agent's
 * code), and the child needs no file of its own, which a URL or compiled install would not have.
 * The function must use nothing from outside its body.
 *
 * A compiled Sextant has no `deno run`: it starts itself with {@linkcode REPL_CHILD_COMMAND},
 * and {@linkcode runReplChild} drops every permission the executable was compiled with before it
 * runs the same function.
 *
 * Its channel is newline-delimited JSON on stdin (in: `run`, `answer`) and stdout (out: `ready`
 * with the permission states, which the host checks; `call`, `info`, `done`). The agent's code
 * can reach stdout too (e.g. through `node:process`), so the host trusts no message: it checks
 * each one and stops the process on anything malformed.
 * @module
 */

/** The hidden first argument that makes a compiled Sextant run as a code-mode child. */
export const REPL_CHILD_COMMAND = "__repl-child";

/** The child's whole program; see the module comment. */
export async function replChildMain(): Promise<void> {
  // Taken before any agent code runs, which could replace it.
  const { cpuUsage } = (await import("node:process")).default;
  const stdout = Deno.stdout;
  const stdin = Deno.stdin;
  const exit = Deno.exit.bind(Deno);
  const inspect = Deno.inspect;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const encoder = new TextEncoder();
  const originalConsole = globalThis.console;
  const globals = globalThis as Record<string, unknown>;

  // The protocol's streams are not the agent's: an accidental read of stdin would eat answers.
  // (Deliberate writes remain possible; the host checks every message.)
  const denoObject = Deno as unknown as Record<string, unknown>;
  delete denoObject.stdin;
  delete denoObject.stdout;
  // Storage that Deno keys by the main module would be shared by every session's child; the host
  // also points DENO_DIR at a path that cannot be created, so nothing of it reaches the disk.
  for (const name of ["caches", "localStorage", "sessionStorage", "BroadcastChannel"]) {
    delete globals[name];
  }
  // A cell's timers end with its answer: a timer left running would keep a core busy between
  // calls. (Work they cannot see, such as timers of node:timers or a MessageChannel ping-pong, is
  // watched by the host, which stops a process that stays busy after its answer.)
  type TimerId = ReturnType<typeof setTimeout>;
  const timers = new Set<TimerId>();
  const nativeSetTimeout = globalThis.setTimeout;
  const nativeSetInterval = globalThis.setInterval;
  const nativeClear = globalThis.clearTimeout;
  type TimerCallback = (...args: unknown[]) => void;
  globals.setTimeout = (callback: TimerCallback, delay?: number, ...args: unknown[]) => {
    const id = nativeSetTimeout(
      (...given: unknown[]) => {
        timers.delete(id);
        callback(...given);
      },
      delay,
      ...args,
    );
    timers.add(id);
    return id;
  };
  globals.setInterval = (callback: TimerCallback, delay?: number, ...args: unknown[]) => {
    const id = nativeSetInterval(callback, delay, ...args);
    timers.add(id);
    return id;
  };
  const clear = (id?: TimerId) => {
    if (id !== undefined) timers.delete(id);
    nativeClear(id);
  };
  globals.clearTimeout = clear;
  globals.clearInterval = clear;
  const signals = AbortSignal as unknown as Record<string, unknown>;
  signals.timeout = (delay: number) => {
    const controller = new AbortController();
    const id = nativeSetTimeout(() => {
      timers.delete(id);
      controller.abort(new DOMException("Signal timed out.", "TimeoutError"));
    }, delay);
    timers.add(id);
    return controller.signal;
  };
  function stopTimers(): void {
    for (const id of timers) nativeClear(id);
    timers.clear();
  }
  // A worker would be a second thread that no answer ends.
  delete globals.Worker;

  // An error of a timer the agent left running must not end the process (and the session's
  // variables); a cell's own errors are caught where it runs.
  globalThis.addEventListener("error", (event) => event.preventDefault());
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());

  let writing: Promise<unknown> = Promise.resolve();
  function post(message: Record<string, unknown>): void {
    const bytes = encoder.encode(stringify(message) + "\n");
    writing = writing.then(async () => {
      for (let done = 0; done < bytes.length;) done += await stdout.write(bytes.subarray(done));
    }).catch(() => exit(70));
  }

  /** Console output kept per cell; the rest is counted, not kept. */
  const MAX_OUTPUT = 20_000;
  let output = "";
  let dropped = 0;

  function write(args: unknown[]): void {
    const line =
      args.map((a) =>
        typeof a === "string" ? a : a instanceof ToolResult ? a.text : inspect(a, { depth: 4 })
      ).join(" ") + "\n";
    const room = MAX_OUTPUT - output.length;
    if (line.length <= room) output += line;
    else {
      output += line.slice(0, Math.max(0, room));
      dropped += line.length - Math.max(0, room);
    }
  }

  const capturedConsole = {
    ...originalConsole,
    log: (...args: unknown[]) => write(args),
    info: (...args: unknown[]) => write(args),
    debug: (...args: unknown[]) => write(args),
    warn: (...args: unknown[]) => write(args),
    error: (...args: unknown[]) => write(args),
  };

  /** An API call's answer: its text is what the tool would have answered. */
  class ToolResult {
    constructor(readonly tool: string, readonly text: string) {}
    /** The answer parsed as JSON when it is JSON, else the text. */
    get data(): unknown {
      const first = this.text.trimStart()[0];
      if (first === "{" || first === "[") {
        try {
          return parse(this.text);
        } catch { /* text after all */ }
      }
      return this.text;
    }
    toString(): string {
      return this.text;
    }
    toJSON(): unknown {
      return this.data;
    }
  }

  /** An API call that the tool answered with an error. */
  class ToolCallError extends Error {
    override name = "ToolError";
  }

  let nextCall = 0;
  const pending = new Map<number, (answer: { text: string; isError: boolean }) => void>();

  function request(message: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const call = ++nextCall;
    return new Promise((resolve) => {
      pending.set(call, resolve);
      post({ ...message, call });
    });
  }

  /** Names the agent's cells declared, removed again by `s.reset()`. */
  const declared = new Set<string>();

  /** An API object whose left-out members throw a ToolError naming why they are absent. */
  function guard<T extends object>(target: T, absent: Record<string, string>, prefix: string): T {
    return new Proxy(target, {
      get(object, key, receiver) {
        if (typeof key === "string" && !(key in object) && Object.hasOwn(absent, key)) {
          throw new ToolCallError(
            `${prefix}${key} is not available in this session: ${absent[key]}.`,
          );
        }
        return Reflect.get(object, key, receiver);
      },
    });
  }

  function buildApi(
    facades: Record<string, string[]>,
    hidden: Record<string, Record<string, string>>,
  ): Record<string, unknown> {
    const api: Record<string, unknown> = {
      info: async (topic?: string) => {
        const answer = await request({ type: "info", topic: topic ?? null });
        if (answer.isError) throw new ToolCallError(answer.text);
        return answer.text;
      },
      reset: () => {
        for (const name of declared) delete globals[name];
        const count = declared.size;
        declared.clear();
        return `Cleared ${count} declaration(s).`;
      },
    };
    for (const [facade, tools] of Object.entries(facades)) {
      const methods: Record<string, unknown> = {};
      for (const tool of tools) {
        methods[tool] = async (args: Record<string, unknown> = {}) => {
          const answer = await request({ type: "call", tool, args });
          if (answer.isError) throw new ToolCallError(answer.text);
          return new ToolResult(tool, answer.text);
        };
      }
      api[facade] = guard(Object.freeze(methods), hidden[facade] ?? {}, `s.${facade}.`);
    }
    // A facade with no offered tool is absent too (not in `s`, not in Object.keys(s)); reading
    // it still gives a stand-in whose methods throw the reason.
    const standIns: Record<string, unknown> = {};
    for (const [facade, tools] of Object.entries(hidden)) {
      if (!facades[facade]) standIns[facade] = guard(Object.freeze({}), tools, `s.${facade}.`);
    }
    return new Proxy(Object.freeze(api), {
      get(object, key, receiver) {
        if (typeof key === "string" && !(key in object) && Object.hasOwn(standIns, key)) {
          return standIns[key];
        }
        return Reflect.get(object, key, receiver);
      },
    });
  }

  function render(value: unknown): string {
    if (value instanceof ToolResult) return value.text;
    if (typeof value === "string") return value;
    if (value === undefined) return "undefined";
    if (value instanceof Map) value = Object.fromEntries(value);
    if (value instanceof Set) value = [...value];
    try {
      const json = stringify(value, (_key, v) => typeof v === "bigint" ? String(v) : v);
      if (
        json !== undefined && !(json === "{}" && Object.getPrototypeOf(value) !== Object.prototype)
      ) {
        return json;
      }
    } catch { /* cyclic: inspect below */ }
    return inspect(value, { depth: 6 });
  }

  function describe(
    error: unknown,
    limit: number,
  ): { name: string; message: string; stack: string } {
    // An error's text is cut here already, so that a huge one never crosses the pipe whole.
    const cut = (text: unknown) => String(text ?? "").slice(0, limit);
    try {
      if (error instanceof Error) {
        return { name: cut(error.name), message: cut(error.message), stack: cut(error.stack) };
      }
      return { name: "Error", message: `Uncaught ${cut(render(error))}`, stack: "" };
    } catch {
      return {
        name: "Error",
        message: "Uncaught exception (it could not be described)",
        stack: "",
      };
    }
  }

  async function run(message: {
    id: number;
    url: string;
    names: string[];
    hasValue: boolean;
    facades: Record<string, string[]>;
    hidden: Record<string, Record<string, string>>;
    maxChars: number;
  }): Promise<void> {
    output = "";
    dropped = 0;
    globals.s = buildApi(message.facades, message.hidden);
    globals.console = capturedConsole;
    for (const name of message.names) declared.add(name);
    const limit = message.maxChars;
    const done = (result: Record<string, unknown>) => {
      stopTimers();
      post({ type: "done", id: message.id, output, dropped, ...result });
    };
    try {
      const module = await import(message.url);
      let value: unknown = module.default;
      if (value !== null && typeof value === "object" && "then" in value) value = await value;
      if (!message.hasValue) return done({ value: null, length: 0 });
      const text = render(value);
      // Only what can be shown crosses the pipe; the host learns the whole length.
      done({ value: text.slice(0, limit + 1), length: text.length });
    } catch (error) {
      done({ error: describe(error, limit) });
    }
  }

  function receive(line: string): void {
    const message = parse(line);
    if (message.type === "run") void run(message);
    else if (message.type === "ping") {
      // The host asks an idle process for its CPU time: work left running counts against it.
      const usage = cpuUsage();
      post({ type: "pong", cpu: usage.user + usage.system });
    } else if (message.type === "answer") {
      const resolve = pending.get(message.call);
      pending.delete(message.call);
      resolve?.({ text: message.text, isError: message.isError });
    }
  }

  async function serve(): Promise<void> {
    const decoder = new TextDecoder();
    // Pieces of the line not yet ended; joined only when its end arrives (an answer may be MBs).
    let pieces: string[] = [];
    for await (const chunk of stdin.readable) {
      const text = decoder.decode(chunk, { stream: true });
      if (!text.includes("\n")) {
        pieces.push(text);
        continue;
      }
      const lines = (pieces.join("") + text).split("\n");
      pieces = [lines.pop()!];
      for (const line of lines) if (line) receive(line);
    }
    // The host closed the pipe (it stopped or died): nothing is left to serve.
    exit(0);
  }

  // The host refuses to run cells unless every permission is off.
  const PERMISSIONS = ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const;
  const states: Record<string, string> = {};
  for (const name of PERMISSIONS) {
    try {
      states[name] = Deno.permissions.querySync({ name } as Deno.PermissionDescriptor).state;
    } catch {
      states[name] = "unknown";
    }
  }
  post({ type: "ready", permissions: states });
  void serve();
}

/** A module URL that runs {@linkcode replChildMain}. */
export function childUrl(): string {
  return `data:application/javascript,${encodeURIComponent(`(${replChildMain.toString()})();`)}`;
}

/**
 * The child's entry in a compiled Sextant, which carries its permissions built in: give every
 * one of them up, then run {@linkcode replChildMain} as `deno run` would.
 */
export async function runReplChild(): Promise<void> {
  const kinds = ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const;
  for (const name of kinds) {
    try {
      Deno.permissions.revokeSync({ name } as Deno.PermissionDescriptor);
    } catch {
      // A kind this Deno cannot revoke: the host's check of the `ready` states refuses it.
    }
  }
  await replChildMain();
}
