/**
 * Sextant's entry point: parse the command line and run the chosen command. Commands load
 * their modules on demand, out of this module's graph (src/cli/lazy.ts): the stdio front that
 * relays to the shared service stays small, and `sextant hook` (run on every tool call of a
 * client) loads only its own small module.
 * @module
 */
import { parseCommandLine, USAGE, UsageError } from "./src/cli/args.ts";
import { bundled, lazyImport } from "./src/cli/lazy.ts";
import { runFromBundle } from "./src/cli/start_bundle.ts";
import { describeError } from "./src/errors.ts";
import { VERSION } from "./src/version.ts";

/** Run the command `args` name (main_bundle.ts, the compiled program's entry, calls it too). */
export async function main(args: string[]): Promise<void> {
  if (args[0] === "__repl-child") {
    // A compiled Sextant has no `deno run`: code mode starts the executable itself as its child
    // (src/repl/child.ts), which drops every permission before it runs agent code.
    const { runReplChild } = await lazyImport<typeof import("./src/repl/child.ts")>(
      "src/repl/child.ts",
    );
    await runReplChild();
  } else if (args[0] === "regex-child") {
    // A compiled Sextant runs user regexes in a copy of itself (src/tools/shared/regex.ts).
    const { serveRegexRequests } = await lazyImport<
      typeof import("./src/tools/shared/regex_child.ts")
    >("src/tools/shared/regex_child.ts");
    await serveRegexRequests();
  } else {
    try {
      const options = parseCommandLine(args);
      if (options.command === "help") {
        console.log(USAGE);
      } else if (options.command === "version") {
        console.log(`sextant ${VERSION}`);
      } else if (options.command === "hook") {
        const { hook } = await lazyImport<typeof import("./src/cli/hook.ts")>("src/cli/hook.ts");
        Deno.exit(await hook(options));
      } else if (options.command === "setup") {
        const { setup } = await lazyImport<typeof import("./src/cli/setup.ts")>("src/cli/setup.ts");
        Deno.exit(await setup(options));
      } else if (options.command === "doctor") {
        const { doctor } = await lazyImport<typeof import("./src/cli/doctor.ts")>(
          "src/cli/doctor.ts",
        );
        Deno.exit(await doctor(options));
      } else if (options.command === "index") {
        const { indexCommand } = await lazyImport<typeof import("./src/cli/index_command.ts")>(
          "src/cli/index_command.ts",
        );
        Deno.exit(await indexCommand(options));
      } else if (options.command === "dashboard") {
        const { dashboard } = await lazyImport<typeof import("./src/cli/dashboard_command.ts")>(
          "src/cli/dashboard_command.ts",
        );
        Deno.exit(await dashboard(options));
      } else if (options.command === "service") {
        const { service } = await lazyImport<typeof import("./src/cli/service_command.ts")>(
          "src/cli/service_command.ts",
        );
        Deno.exit(await service(options));
      } else {
        const { serve } = await lazyImport<typeof import("./src/cli/serve.ts")>("src/cli/serve.ts");
        await serve(options);
      }
    } catch (error) {
      console.error(
        error instanceof UsageError ? error.message : `sextant: ${describeError(error)}`,
      );
      Deno.exit(2);
    }
  }
}

// In a bundle every module shares the entry point's `import.meta.main`: there main_bundle.ts,
// which registered the bundled modules first, runs main.
// A serving process runs from the start bundle when there is one for these files (one module
// instead of ~300: src/cli/start_bundle.ts); every other command runs the modules as they are.
if (import.meta.main && !bundled() && !await runFromBundle(Deno.args)) await main(Deno.args);
