/**
 * A session on an existing folder for scripts/bench/scip.ts, in this process, with the
 * TypeScript server switched off (the rows measure the index alone; a changed file is named).
 * Sessions given the same host share the project's services, as sessions of the shared service
 * do.
 * @module
 */
import { loadSettings } from "../../../src/config/load.ts";
import { Project } from "../../../src/project/project.ts";
import { ProjectHost } from "../../../src/project_host.ts";
import { Session } from "../../../src/session/session.ts";
import { callTool } from "../../../src/tools/call.ts";
import { findReferences } from "../../../src/tools/ide/find_references.ts";
import { ALL_TOOLS } from "../../../src/tools/mod.ts";

export interface BenchSession {
  host: ProjectHost;
  session: Session;
  project: Project;
  findReferences(args: Record<string, unknown>): Promise<string>;
  dispose(): Promise<void>;
}

export async function toolHarnessAt(root: string, host?: ProjectHost): Promise<BenchSession> {
  const settings = await loadSettings({
    projectRoot: root,
    globalFile: null,
    overrides: { language_servers: { typescript: { disabled: true } } },
  });
  const project = Project.open(root, settings);
  const shared = host ?? new ProjectHost({ projectIdleMs: 60_000 });
  const session = new Session({ host: () => shared, settings, tools: ALL_TOOLS, project });
  return {
    host: shared,
    session,
    project,
    async findReferences(args) {
      const result = await callTool(session, findReferences, {
        ...args,
        max_answer_chars: 10_000_000,
      });
      if (result.isError) throw new Error(result.text);
      return result.text;
    },
    dispose: () => session.dispose(),
  };
}
