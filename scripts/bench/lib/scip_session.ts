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
import { findReferencingSymbols } from "../../../src/tools/symbols/find_referencing_symbols.ts";
import { ALL_TOOLS } from "../../../src/tools/mod.ts";

export interface BenchSession {
  host: ProjectHost;
  session: Session;
  project: Project;
  findReferences(args: Record<string, unknown>): Promise<string>;
  findReferencingSymbols(args: Record<string, unknown>): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * `withServer`: the TypeScript server stays configured (find_referencing_symbols needs the files'
 * symbol trees, which the declaration index gives only where the server is one it was proven
 * against); the rows still check that it never starts.
 */
export async function toolHarnessAt(
  root: string,
  host?: ProjectHost,
  withServer = false,
): Promise<BenchSession> {
  const settings = await loadSettings({
    projectRoot: root,
    globalFile: null,
    overrides: withServer ? {} : { language_servers: { typescript: { disabled: true } } },
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
    async findReferencingSymbols(args) {
      const result = await callTool(session, findReferencingSymbols, {
        ...args,
        max_answer_chars: 10_000_000,
      });
      if (result.isError) throw new Error(result.text);
      return result.text;
    },
    dispose: () => session.dispose(),
  };
}
