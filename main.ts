/**
 * Sextant's entry point: parse the command line and run the chosen command. Commands load
 * their modules on demand: the stdio front that relays to the shared service stays small, and
 * `sextant hook` (run on every tool call of a client) loads only its own small module.
 * @module
 */
import { parseCommandLine, USAGE, UsageError } from "./src/cli/args.ts";
import { describeError } from "./src/errors.ts";
import { VERSION } from "./src/version.ts";

if (import.meta.main && Deno.args[0] === "__repl-child") {
  // A compiled Sextant has no `deno run`: code mode starts the executable itself as its child
  // (src/repl/child.ts), which drops every permission before it runs agent code.
  const { runReplChild } = await import("./src/repl/child.ts");
  runReplChild();
} else if (import.meta.main && Deno.args[0] === "regex-child") {
  // A compiled Sextant runs user regexes in a copy of itself (src/tools/shared/regex.ts).
  const { serveRegexRequests } = await import("./src/tools/shared/regex_child.ts");
  await serveRegexRequests();
} else if (import.meta.main) {
  try {
    const options = parseCommandLine(Deno.args);
    if (options.command === "help") {
      console.log(USAGE);
    } else if (options.command === "version") {
      console.log(`sextant ${VERSION}`);
    } else if (options.command === "hook") {
      const { hook } = await import("./src/cli/hook.ts");
      Deno.exit(await hook(options));
    } else if (options.command === "setup") {
      const { setup } = await import("./src/cli/setup.ts");
      Deno.exit(await setup(options));
    } else if (options.command === "doctor") {
      const { doctor } = await import("./src/cli/doctor.ts");
      Deno.exit(await doctor(options));
    } else if (options.command === "service") {
      const { service } = await import("./src/cli/service_command.ts");
      Deno.exit(await service(options));
    } else {
      const { serve } = await import("./src/cli/serve.ts");
      await serve(options);
    }
  } catch (error) {
    console.error(error instanceof UsageError ? error.message : `sextant: ${describeError(error)}`);
    Deno.exit(2);
  }
}
