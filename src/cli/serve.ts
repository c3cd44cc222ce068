/**
 * `sextant serve`: the MCP server on stdio. By default this process is a thin front that relays
 * the session to the per-user service (started when none runs; see cli/relay.ts), so every
 * session shares warm language servers. `--standalone` serves in this process instead, and so
 * does a front that cannot reach or start a service. Either way the process stops on stdin EOF,
 * SIGINT or SIGTERM, after stopping what it started.
 * @module
 */
import { log, setLogLevel } from "../log.ts";
import type { CliOptions } from "../config/cli_options.ts";
import { lazyImport } from "./lazy.ts";
import { fromStartBundle } from "../own_files.ts";
import { START_BUNDLE_FOLDER } from "./start_bundle.ts";

/** Serve in this process: one session, its own language servers. */
export async function serveStandalone(options: CliOptions): Promise<void> {
  const place = { cwd: Deno.cwd(), initCwd: Deno.env.get("INIT_CWD") };
  // The project's server starts loading now, beside the session's modules (lsp/prestart.ts).
  const ahead = options.project !== undefined && !options.noProject
    ? await lazyImport<typeof import("../lsp/prestart.ts")>("src/lsp/prestart.ts")
    : null;
  ahead?.prestartNamed(options.project!, place);
  const { DenoStdioTransport } = await lazyImport<typeof import("../mcp/stdio.ts")>(
    "src/mcp/stdio.ts",
  );
  const { openSession } = await lazyImport<typeof import("../service/sessions.ts")>(
    "src/service/sessions.ts",
  );
  const { session, server } = await openSession(options, place);
  setLogLevel(session.project?.settings.log_level ?? session.settings.log_level);
  const transport = new DenoStdioTransport();

  let stopping: Promise<void> | null = null;
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log.debug(`shutting down (${why})`);
      await session.dispose();
      await ahead?.stopStartedAhead();
      await server.close().catch(() => {});
      Deno.exit(0);
    })();
    return stopping;
  };
  transport.onclose = () => void stop("stdin closed");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, () => void stop(signal));
    } catch { /* signal not supported on this platform */ }
  }
  await server.connect(transport);
  log.info(
    session.project
      ? `serving project ${session.project.root}`
      : "serving without a project (activate_project)",
  );
}

export async function serve(options: CliOptions): Promise<void> {
  if (options.logLevel) setLogLevel(options.logLevel);
  if (fromStartBundle()) log.debug(`running from the start bundle (${START_BUNDLE_FOLDER})`);
  if (options.http !== undefined) {
    const { serveHttp } = await lazyImport<typeof import("../service/http.ts")>(
      "src/service/http.ts",
    );
    return await serveHttp(options);
  }
  if (options.standalone) return await serveStandalone(options);
  const { relay } = await lazyImport<typeof import("./relay.ts")>("src/cli/relay.ts");
  const relayed = await relay(options);
  if (!relayed) await serveStandalone(options);
}
