/**
 * The code-mode worker: runs the agent's cells with no Deno permissions at all. It is one
 * self-contained function, {@linkcode replWorkerMain}, that the host starts from a `data:` URL of
 * its source text: so no Sextant module is loaded in the worker (a loaded module could be imported
 * again by the agent's code without any permission), and the worker needs no file of its own,
 * which a bundled or compiled binary would not have. The function must use nothing from outside
 * its body. Its only channel is `postMessage` to the host
 * (src/tools/repl/cell_runner.ts), which runs every API call through the tool pipeline.
 *
 * Messages in: `run` (a rewritten cell as a `data:` URL, with the API's facades), `answer` (the
 * result of an API call or an `info` request). Out: `ready` (with the permission states, which
 * the host checks), `call`, `info`, `done`.
 * @module
 */

/** The worker's whole program; see the module comment. */
export function replWorkerMain(): void {
  interface WorkerScope {
    postMessage(message: unknown): void;
    onmessage: ((event: MessageEvent) => void) | null;
  }

  const scope = globalThis as unknown as WorkerScope;
  const post = scope.postMessage.bind(scope);
  const inspect = Deno.inspect;
  const stringify = JSON.stringify;
  const originalConsole = globalThis.console;

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
          return JSON.parse(this.text);
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
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();

  function request(message: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    const call = ++nextCall;
    return new Promise((resolve, reject) => {
      pending.set(call, { resolve: resolve as (v: unknown) => void, reject });
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
        for (const name of declared) delete (globalThis as Record<string, unknown>)[name];
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

  function describe(error: unknown): { name: string; message: string; stack: string } {
    if (error instanceof Error) {
      return { name: error.name, message: error.message, stack: error.stack ?? "" };
    }
    return { name: "Error", message: `Uncaught ${render(error)}`, stack: "" };
  }

  async function run(message: {
    id: number;
    url: string;
    names: string[];
    hasValue: boolean;
    facades: Record<string, string[]>;
    hidden: Record<string, Record<string, string>>;
  }): Promise<void> {
    output = "";
    dropped = 0;
    const globals = globalThis as Record<string, unknown>;
    globals.s = buildApi(message.facades, message.hidden);
    globals.console = capturedConsole;
    for (const name of message.names) declared.add(name);
    const done = (result: Record<string, unknown>) =>
      post({ type: "done", id: message.id, output, dropped, ...result });
    try {
      const module = await import(message.url);
      let value: unknown = module.default;
      if (value !== null && typeof value === "object" && "then" in value) value = await value;
      done({ value: message.hasValue ? render(value) : null });
    } catch (error) {
      done({ error: describe(error) });
    }
  }

  scope.onmessage = (event: MessageEvent) => {
    const message = event.data;
    if (message.type === "run") void run(message);
    else if (message.type === "answer") {
      const waiter = pending.get(message.call);
      pending.delete(message.call);
      waiter?.resolve({ text: message.text, isError: message.isError });
    }
  };

  // The host refuses to run cells unless every permission is off (a Deno without the
  // worker-options feature would ignore `permissions: "none"` and give the worker the host's).
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
}

/** A module URL that runs {@linkcode replWorkerMain}. */
export function workerUrl(): string {
  return `data:application/javascript,${encodeURIComponent(`(${replWorkerMain.toString()})();`)}`;
}
