/**
 * The dev-tools workflow's `auto_update_code_actions`: after get_symbol_info, execute_code_action, an applied
 * rename_symbol and refresh_code_actions, each loaded project's code-action cache is brought up to
 * date. Stale actions (a file they depend on changed, by Sextant or by the client's own tools)
 * are dropped; for every file that lost actions, that the call wrote, or that had fixes before and
 * changed since, the language server is asked again for the quick fixes of the file's current
 * errors and warnings. Actions whose files
 * did not change keep their ids, so ids an agent saw (check_project's fixes, a rename preview)
 * stay valid until their files change; re-asking an unchanged file gives the same ids.
 *
 * The client hears of a change through an MCP logging notification (`notifications/message`,
 * logger `sextant.code_actions`): the tool list did not change, so `tools/list_changed` would be
 * wrong, and Sextant offers no resources whose `resources/list_changed` could carry it.
 *
 * Part of the call pipeline (`call.ts` runs it after each call), on the code-action runner
 * (`code_action_runner.ts`); it needs the session's projects, so it lives in tools/.
 * @module
 */
import { relative, sep } from "node:path";
import { log } from "../log.ts";
import type { Project } from "../project/project.ts";
import { type CodeActionStore, fileHash } from "../session/code_action_store.ts";
import type { ToolContext } from "./tool.ts";
import { requestCodeActions } from "./code_action_runner.ts";
import { forProject } from "./shared/project_selection.ts";
import { resolveFile } from "./shared/targets.ts";

/** The tools after which the caches are brought up to date (the dev-tools workflow's triggers). */
export const AUTO_UPDATE_TRIGGERS: ReadonlySet<string> = new Set([
  "get_symbol_info",
  "execute_code_action",
  "rename_symbol",
  "refresh_code_actions",
]);

/** At most this many diagnostics are asked for fixes per update. */
const MAX_DIAGNOSTICS = 50;

/** What an update changed in one project's cache. */
export interface CodeActionUpdate {
  project: string;
  /** Ids dropped because a file they depend on changed. */
  dropped: string[];
  /** Fix actions the update stored that were not in the cache before. */
  added: number;
  /** Actions in the cache now (fixes and previews). */
  count: number;
}

/**
 * The files each cache has covered (fixes were asked or listed for them), with their content
 * hash then: a covered file that changed since is asked again, even when no action is left.
 */
const covered = new WeakMap<CodeActionStore, Map<string, string | null>>();

/** A real path's project-relative path in `project`, or null when it lies outside. */
function inProject(project: Project, realPath: string): string | null {
  const rel = relative(project.root, realPath);
  if (rel === "" || rel.startsWith("..") || rel.startsWith(sep)) return null;
  return rel.split(sep).join("/");
}

/** Ask for the quick fixes of a file's current errors and warnings; returns how many were new. */
async function refreshFile(
  ctx: ToolContext,
  relPath: string,
  budget: { left: number },
): Promise<number> {
  const store = ctx.session.codeActions(ctx.project());
  const before = new Set(store.list().map((a) => a.id));
  if (!ctx.session.services(ctx.project()).pool.handles(relPath)) return 0;
  const file = await resolveFile(ctx, relPath);
  const diagnostics = await file.server.diagnostics(file.relPath, file.options);
  for (const d of diagnostics.filter((d) => (d.severity ?? 1) <= 2)) {
    if (budget.left-- <= 0) break;
    await requestCodeActions(ctx, file, d.range, [d], ["quickfix"]);
  }
  return store.list().filter((a) => !before.has(a.id)).length;
}

/**
 * Bring every loaded project's code-action cache up to date after a trigger call that wrote
 * `written` (real paths). Returns what changed, per project whose cache changed. Never throws:
 * a failing server leaves that file's fixes out (logged).
 */
export async function autoUpdateCodeActions(
  ctx: ToolContext,
  written: ReadonlySet<string>,
): Promise<CodeActionUpdate[]> {
  const session = ctx.session;
  const projects = [
    ...new Set([...(session.project ? [session.project] : []), ...session.projects.list()]),
  ];
  const budget = { left: MAX_DIAGNOSTICS };
  const updates: CodeActionUpdate[] = [];
  for (const project of projects) {
    const store = session.codeActions(project);
    const pctx = forProject(ctx, project);
    const staleFiles = new Set<string>();
    const entries = new Map(store.list().map((a) => [a.id, a]));
    let files = covered.get(store);
    if (!files) covered.set(store, files = new Map());
    for (const entry of entries.values()) {
      if (entry.action !== undefined && !files.has(entry.relPath)) {
        files.set(entry.relPath, entry.hashes[entry.relPath] ?? null);
      }
    }
    for (const [relPath, hash] of files) {
      if (await fileHash(project.absolute(relPath)) !== hash) staleFiles.add(relPath);
    }
    const dropped = await store.prune();
    for (const id of dropped) {
      const entry = entries.get(id);
      // Fixes of a changed file are asked again; a stale rename preview is just dropped.
      if (entry && entry.action !== undefined) staleFiles.add(entry.relPath);
    }
    for (const real of written) {
      const rel = inProject(project, real);
      if (rel !== null) staleFiles.add(rel);
    }
    let added = 0;
    for (const relPath of staleFiles) {
      if (ctx.signal.aborted) break;
      try {
        added += await refreshFile(pctx, relPath, budget);
        files.set(relPath, await fileHash(project.absolute(relPath)));
      } catch (error) {
        if (ctx.signal.aborted) break;
        log.debug(`auto-update of code actions for ${relPath} failed:`, error);
      }
    }
    if (dropped.length > 0 || added > 0) {
      updates.push({ project: project.name, dropped, added, count: store.list().length });
    }
  }
  return updates;
}
