/**
 * `sextant service status|stop`: show or stop this user's shared service. (`service run` is how
 * a front starts the service; users need not call it.)
 * @module
 */
import { askServices } from "./relay.ts";
import type { ServiceStatus } from "../service/handshake.ts";
import type { CliOptions } from "../config/cli_options.ts";

function megabytes(bytes: number | null): string {
  return bytes === null ? "?" : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** The status as lines a person reads. */
export function formatStatus(status: ServiceStatus): string {
  const lines = [
    `sextant service ${status.version}, pid ${status.pid}, ${megabytes(status.rss)}, ` +
    `since ${status.startedAt}`,
    `listening on 127.0.0.1:${status.port}`,
    `exits ${status.idleTimeoutSeconds} s after its last session`,
    status.dashboard
      ? `dashboard: ${status.dashboard} ('sextant dashboard' prints a link that signs in)`
      : "dashboard: not started ('sextant dashboard' starts it)",
    `sessions: ${status.sessions.length}`,
  ];
  for (const s of status.sessions) {
    lines.push(`  session ${s.id}: ${s.project ?? "(no project)"} [${s.context}] since ${s.since}`);
  }
  lines.push(`projects: ${status.projects.length}`);
  for (const p of status.projects) {
    lines.push(
      `  ${p.root}: ${p.sessions} session(s)` +
        (p.sessions === 0 ? `, idle ${p.idleSeconds} s` : ""),
    );
    for (const server of p.servers) {
      lines.push(`    ${server.id}: pid ${server.pid ?? "-"}, ${megabytes(server.rss)}`);
    }
  }
  return lines.join("\n");
}

/** Run `sextant service <action>`; the exit code. */
export async function service(options: CliOptions): Promise<number> {
  if (options.serviceAction === "run") {
    const { runService } = await import("../service/service.ts");
    await runService(options);
    return 0;
  }
  const op = options.serviceAction === "stop" ? "stop" : "status";
  const answers = await askServices(op);
  if (answers.length === 0) {
    console.log("no sextant service is running");
    return op === "stop" ? 0 : 1;
  }
  let code = 0;
  for (const welcome of answers) {
    if (!welcome.ok) {
      console.error(`sextant: ${welcome.error}`);
      code = 1;
    } else {
      console.log(op === "stop" ? "sextant service stopped" : formatStatus(welcome.status!));
    }
  }
  return code;
}
