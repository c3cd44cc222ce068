/**
 * The dashboard's projects panel: each project the service serves, and each of its language
 * servers with its command, version, pid, state, restarts and cost (memory and CPU of its whole
 * process tree, from /proc); and the restart of one server.
 * @module
 */
import { ToolError } from "../errors.ts";
import type { ProjectHost } from "../project_host.ts";
import type { ManagedServer } from "../lsp/managed_server.ts";
import type { ProcessSampler } from "./processes.ts";

/** One language server as the page shows it. */
export interface ServerView {
  id: string;
  command: string;
  version: string | null;
  pid: number | null;
  state: string;
  progress: string | null;
  restarts: number;
  rss: number | null;
  cpuPercent: number | null;
  cpuSeconds: number | null;
}

/** One project as the page shows it. */
export interface ProjectView {
  root: string;
  name: string;
  sessions: number;
  servers: ServerView[];
}

/** Every project the host serves, with its servers and what they cost now. */
export async function projectViews(
  host: ProjectHost,
  sampler: ProcessSampler,
): Promise<ProjectView[]> {
  const served = host.served();
  const pids = served.flatMap((s) => s.pool.running().map((server) => server.pid))
    .filter((pid): pid is number => pid !== null);
  const costs = await sampler.sample(pids);
  return served.map((services) => ({
    root: services.project.root,
    name: services.project.name,
    sessions: services.users.size,
    servers: services.pool.running().map((server) => {
      const { state, progress } = server.state;
      const cost = server.pid === null ? null : costs.get(server.pid) ?? null;
      const info = server.serverInfo;
      return {
        id: server.id,
        command: server.command,
        version: info.version ? `${info.name ?? ""} ${info.version}`.trim() : null,
        pid: server.pid,
        state,
        progress,
        restarts: server.restarts,
        rss: cost?.rss ?? null,
        cpuPercent: cost?.cpuPercent ?? null,
        cpuSeconds: cost?.cpuSeconds ?? null,
      };
    }),
  }));
}

function findServer(host: ProjectHost, root: string, id: string): ManagedServer {
  const services = host.served().find((s) => s.project.root === root);
  if (!services) throw new ToolError(`The service serves no project at ${root}.`);
  const server = services.pool.running().find((s) => s.id === id);
  if (!server) throw new ToolError(`Project ${root} has no ${id} language server.`);
  return server;
}

/** Stop a project's language server and start it again; its new pid. */
export async function restartServer(host: ProjectHost, root: string, id: string): Promise<number> {
  const server = findServer(host, root, id);
  await server.restart();
  const pid = server.pid;
  if (pid === null) throw new ToolError(`The ${id} language server did not start again.`);
  return pid;
}
