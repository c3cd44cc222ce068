/**
 * Sextant's entry point: parse the command line and run the chosen command.
 * @module
 */
import { parseCommandLine, USAGE, UsageError } from "./src/cli/args.ts";
import { doctor } from "./src/cli/doctor.ts";
import { serve } from "./src/cli/serve.ts";
import { describeError } from "./src/errors.ts";
import { VERSION } from "./src/version.ts";

if (import.meta.main) {
  try {
    const options = parseCommandLine(Deno.args);
    if (options.command === "help") {
      console.log(USAGE);
    } else if (options.command === "version") {
      console.log(`sextant ${VERSION}`);
    } else if (options.command === "doctor") {
      Deno.exit(await doctor(options));
    } else {
      await serve(options);
    }
  } catch (error) {
    console.error(error instanceof UsageError ? error.message : `sextant: ${describeError(error)}`);
    Deno.exit(2);
  }
}
