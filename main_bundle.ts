/**
 * The entry point of the bundled and compiled program (scripts/release/compile.ts): main.ts, with every
 * module it loads lazily imported here by a literal specifier, so that the bundler takes them
 * (and their npm packages) in. `deno run` uses main.ts, whose graph leaves them out until they
 * are needed (src/cli/lazy.ts).
 * @module
 */
import { registerLazyModules } from "./src/cli/lazy.ts";
import { registerOwnRoot } from "./src/own_files.ts";

registerLazyModules({
  "src/cli/dashboard_command.ts": () => import("./src/cli/dashboard_command.ts"),
  "src/cli/doctor.ts": () => import("./src/cli/doctor.ts"),
  "src/cli/hook.ts": () => import("./src/cli/hook.ts"),
  "src/cli/index_command.ts": () => import("./src/cli/index_command.ts"),
  "src/cli/relay.ts": () => import("./src/cli/relay.ts"),
  "src/cli/serve.ts": () => import("./src/cli/serve.ts"),
  "src/cli/service_command.ts": () => import("./src/cli/service_command.ts"),
  "src/cli/service_start.ts": () => import("./src/cli/service_start.ts"),
  "src/cli/setup.ts": () => import("./src/cli/setup.ts"),
  "src/lsp/prestart.ts": () => import("./src/lsp/prestart.ts"),
  "src/mcp/stdio.ts": () => import("./src/mcp/stdio.ts"),
  "src/repl/child.ts": () => import("./src/repl/child.ts"),
  "src/service/http.ts": () => import("./src/service/http.ts"),
  "src/service/sessions.ts": () => import("./src/service/sessions.ts"),
  "src/tools/shared/regex_child.ts": () => import("./src/tools/shared/regex_child.ts"),
});

// Imported after the loaders are registered: main.ts's own start sees them and leaves it to us.
const { main } = await import("./main.ts");
if (import.meta.main) await main(Deno.args);

/**
 * Run the command `args` name, for main.ts when it loaded this program as the start bundle
 * (src/cli/start_bundle.ts), from the checkout at `rootUrl`: its own files are found there.
 */
export async function runBundled(args: string[], rootUrl: string): Promise<void> {
  registerOwnRoot(rootUrl);
  await main(args);
}
