/**
 * rename_symbol: renames a symbol everywhere with the language server, or previews the rename.
 *
 * One tool, two forms (never mixed in one call):
 * - Serena's: `name_path` + `relative_path`, `preview` (default false: apply);
 * - the dev-tools workflow's: `symbol_name` found in the project as get_symbol_info
 *   finds it (`file_hint` narrows it), `project_name` by smart project selection, and
 *   `execute_immediately` (default false: a preview stored as a code action, executed by id with
 *   execute_code_action). Its parameters are listed in the `devtools` context only (the default
 *   list has no room for them) and accepted in every context.
 * @module
 */
import { checkNewName } from "../../symbols/identifiers.ts";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { planWorkspaceEdit } from "../../edit/workspace_edit.ts";
import {
  type EditPreview,
  previewWorkspaceEdit,
  type StoredAction,
} from "../../session/code_action_store.ts";
import { namePathOf, symbolKindName } from "../../symbols/model.ts";
import { requestRename } from "../../symbols/queries.ts";
import { type NotAnalysed, notAnalysedText } from "../../symbols/completeness.ts";
import type { SymbolMatch } from "../../symbols/lookup.ts";
import type { Project } from "../../project/project.ts";
import type { Session } from "../../session/session.ts";
import { describe } from "../shared/symbol_params.ts";
import { indexOf, requestOptions } from "../shared/locate_symbol.ts";
import { defineTool, type ToolAnswer, type ToolContext } from "../tool.ts";
import { locate } from "../shared/locate_symbol.ts";
import { symbolEditParams } from "../shared/symbol_params.ts";
import { toJson } from "../shared/json.ts";
import { applyWorkspaceEdit } from "../shared/write.ts";
import { listedIn } from "../shared/alias.ts";
import { forProject, selectProject } from "../shared/project_selection.ts";
import { baseNamePath, resolveSymbol, type SymbolGroup } from "./get_symbol_info.ts";

/** Contexts that list the dev-tools workflow's parameters (every context accepts them). */
const WORKFLOW_CONTEXTS = ["devtools"];
/** Parameters of each form; giving parameters of both is an error. */
const SERENA_KEYS = ["name_path", "relative_path", "preview"] as const;
const WORKFLOW_KEYS = ["symbol_name", "file_hint", "project_name", "execute_immediately"] as const;
const TOOL_NAME = "rename_symbol";
/** Candidates named when a symbol name is ambiguous. */
const MAX_CANDIDATES = 10;

const previewParam = z.boolean().default(false).describe(
  "Change nothing; return the changes and an action_id.",
);

const params = {
  // Required in Serena's form; listed as required everywhere but in the dev-tools workflow's contexts.
  name_path: listedIn(
    z.string().optional().describe(`${describe.namePath} With relative_path.`),
    WORKFLOW_CONTEXTS,
    symbolEditParams.name_path,
  ),
  relative_path: listedIn(
    z.string().optional().describe(describe.relativePath),
    WORKFLOW_CONTEXTS,
    symbolEditParams.relative_path,
  ),
  new_name: z.string().describe("The new name."),
  // Optional here, to tell a given `preview` from the default; listed with its default.
  preview: listedIn(
    z.boolean().optional().describe("Change nothing; return the changes and an action_id."),
    [],
    previewParam,
  ),
  symbol_name: listedIn(
    z.string().optional().describe(
      "Instead of name_path and relative_path: the symbol's name (or 'Class/method'), found " +
        "in the project like get_symbol_info.",
    ),
    WORKFLOW_CONTEXTS,
  ),
  file_hint: listedIn(
    z.string().optional().describe("With symbol_name: a file or folder it is in (may be partial)."),
    WORKFLOW_CONTEXTS,
  ),
  project_name: listedIn(
    z.string().optional().describe(
      "With symbol_name: a loaded project (manage_projects); omitted: the last used one.",
    ),
    WORKFLOW_CONTEXTS,
  ),
  // Accepted in every context; listed where Serena's list need not stay exact (a refusal
  // names it where it is not listed).
  force: listedIn(
    z.boolean().optional().describe(
      "Apply even when occurrences of the old name remain that the server neither renames " +
        "nor explains (listed in the refusal).",
    ),
    WORKFLOW_CONTEXTS,
  ),
  execute_immediately: listedIn(
    z.boolean().optional().describe(
      "With symbol_name: true applies the rename; false (default) changes nothing and returns " +
        "an action_id for execute_code_action.",
    ),
    WORKFLOW_CONTEXTS,
  ),
};

type Args = z.infer<z.ZodObject<typeof params>>;

/** Which form a call uses; a ToolError (nothing changed) for a mix or a missing name. */
function formOf(args: Args): "serena" | "workflow" {
  const given = (keys: readonly (keyof Args)[]) => keys.filter((k) => args[k] !== undefined);
  const serena = given(SERENA_KEYS);
  const workflow = given(WORKFLOW_KEYS);
  if (serena.length > 0 && workflow.length > 0) {
    throw new ToolError(
      `rename_symbol takes one form per call, not both: got ${serena.join(", ")} (Serena's ` +
        `form: name_path, relative_path, preview) with ${workflow.join(", ")} (the dev-tools ` +
        "form: symbol_name, file_hint, project_name, execute_immediately). Nothing was changed.",
    );
  }
  if (workflow.length > 0) {
    if (args.symbol_name === undefined) {
      throw new ToolError(
        `symbol_name is missing: ${workflow.join(", ")} go with symbol_name, the name of the ` +
          "symbol to rename. Nothing was changed.",
      );
    }
    return "workflow";
  }
  const missing = (["name_path", "relative_path"] as const).filter((k) => args[k] === undefined);
  if (missing.length > 0) {
    throw new ToolError(
      `${missing.join(" and ")} missing: give name_path and relative_path (the symbol's file), ` +
        "or symbol_name (with optional file_hint, project_name, execute_immediately). " +
        "Nothing was changed.",
    );
  }
  return "serena";
}

export const renameSymbol = defineTool({
  name: TOOL_NAME,
  description:
    "Renames a symbol across the project with the language server, in all files or none.",
  params,
  markers: ["symbolic-edit", "can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const form = formOf(args);
    const newName = checkNewName(args.new_name);
    if (form === "workflow") return await renameByName(args, args.symbol_name!, newName, ctx);
    const target = await locate(ctx, args.name_path!, args.relative_path!);
    const oldPath = namePathOf(target.node);
    if (newName === target.node.name) {
      return `'${oldPath}' is already named '${newName}'; nothing to change.`;
    }
    const project = ctx.project();
    const index = indexOf(ctx);
    const { edit, server, notAnalysed } = await requestRename(
      index,
      target,
      newName,
      requestOptions(ctx),
    );
    if (args.preview) {
      const preview = await previewWorkspaceEdit(
        ctx.session.codeActions(project),
        project,
        edit,
        (uri) => server.relPathOf(uri),
        {
          title: `Rename '${oldPath}' to '${newName}'`,
          oldName: target.node.name,
          newName,
          relPath: target.node.relPath,
          line: target.node.selectionRange.start.line + 1,
          serverId: server.id,
        },
      );
      return toJson(
        notAnalysed.length > 0 ? { ...preview, not_analysed: notedList(notAnalysed) } : preview,
      );
    }
    refuseUnexplained(target.node.name, notAnalysed, args.force === true);
    // The server's rename edits text only; a rename that moves files is refused.
    const planOptions = {
      relPathOf: (uri: string) => server.relPathOf(uri),
      fileOperations: false,
    };
    const plan = await planWorkspaceEdit(project, edit, planOptions);
    const planned = plan.files.filter((p) => p.after !== p.before);
    if (planned.length === 0) {
      throw new ToolError(
        `The language server found nothing to rename for '${oldPath}' in ` +
          `'${target.node.relPath}'. Check the name path with find_symbol.`,
      );
    }
    // A server's rename can be wrong (e.g. through re-exports): the errors it introduced come
    // back with the answer (see tools/new_errors.ts).
    ctx.signal.throwIfAborted();
    const changed = await applyWorkspaceEdit(ctx, edit, planOptions);
    // Serena 2.1's message, whose "(N changes applied)" counts files: Sextant counts both.
    const edits = changed.reduce((n, f) => n + f.editCount, 0);
    return `Successfully renamed '${args.name_path}' to '${newName}' ` +
      `(${edits} edit${edits === 1 ? "" : "s"} in ${changed.length} ` +
      `file${changed.length === 1 ? "" : "s"})` +
      (notAnalysed.length > 0
        ? `\nApplied with force; left as they were: ${
          notAnalysedText(target.node.name, notAnalysed)
        }`
        : "");
  },
});

/**
 * A rename must not answer OK while code still uses the old name: with occurrences the server
 * neither renames nor explains, nothing is changed unless `force` is given.
 */
function refuseUnexplained(name: string, notAnalysed: readonly NotAnalysed[], force: boolean) {
  if (notAnalysed.length === 0 || force) return;
  throw new ToolError(
    `${notAnalysedText(name, notAnalysed)}\nNothing was changed. Fix or check those places, ` +
      "then rename again, or pass force: true to rename the rest anyway.",
  );
}

/** The occurrences for a JSON answer: "file:line: text (reason)". */
function notedList(notAnalysed: readonly NotAnalysed[]): string[] {
  return notAnalysed.map((n) => `${n.relPath}:${n.line + 1}: ${n.text} (${n.reason})`);
}

/** The loaded projects (the active one first), whose caches execute_code_action searches. */
function loadedProjects(session: Session): Project[] {
  const active = session.project;
  return [...new Set([...(active ? [active] : []), ...session.projects.list()])];
}

/** The error for a symbol name that several symbols have. */
function ambiguous(project: Project, name: string, groups: readonly SymbolGroup[], note?: string) {
  const listed = groups.slice(0, MAX_CANDIDATES).map((g) => {
    const node = g.members[0]!.node;
    return `${baseNamePath(node)} (${symbolKindName(node.kind)}) in ${node.relPath}:` +
      `${node.selectionRange.start.line + 1}`;
  });
  const more = groups.length > MAX_CANDIDATES ? `, and ${groups.length - MAX_CANDIDATES} more` : "";
  return new ToolError(
    [
      note,
      `${groups.length} symbols named '${name}' in project '${project.name}': ` +
      `${listed.join("; ")}${more}. Pass file_hint (the candidate's file) or a longer name ` +
      "path as symbol_name (e.g. 'Class/method'). Nothing was changed.",
    ].filter(Boolean).join(" "),
  );
}

/**
 * The id a preview in the dev-tools workflow's form is stored under: its descriptive
 * `rename_OLD_to_NEW` when no loaded project's cache holds another current action with that id
 * (a new preview of the same symbol replaces its own); else the cache's id (title slug and
 * hash), so ids never collide.
 */
async function workflowActionId(
  session: Session,
  project: Project,
  stored: StoredAction,
  oldName: string,
  newName: string,
): Promise<string> {
  const safe = (name: string) => name.replace(/[^\p{L}\p{N}_$]+/gu, "_");
  const id = `rename_${safe(oldName)}_to_${safe(newName)}`;
  if (id === stored.id) return id;
  for (const other of loadedProjects(session)) {
    const store = session.codeActions(other);
    const held = store.get(id);
    if (!held) continue;
    const same = other === project && held.kind === stored.kind &&
      held.relPath === stored.relPath && held.line === stored.line;
    if (!same && (await store.changedFiles(held)).length === 0) return stored.id;
  }
  const store = session.codeActions(project);
  for (const other of loadedProjects(session)) session.codeActions(other).remove(id);
  store.remove(stored.id);
  store.add({ ...stored, id });
  return id;
}

/** Per file, the text edits of a preview, as the dev-tools workflow's answer lists them. */
function affectedFiles(files: Record<string, number>): Array<{ file: string; edits: number }> {
  return Object.entries(files).map(([file, edits]) => ({ file, edits }));
}

/** The dev-tools workflow's form: find the symbol by name, then preview (stored by id) or apply the rename. */
async function renameByName(
  args: Args,
  symbolName: string,
  newName: string,
  ctx: ToolContext,
): Promise<ToolAnswer> {
  const project = selectProject(ctx, args.project_name);
  // The write path and the code-action cache work on the selected project.
  const pctx = ctx.session.project === project ? ctx : forProject(ctx, project);
  const index = ctx.session.services(project).symbols;
  const resolution = await resolveSymbol(ctx, project, index, symbolName, args.file_hint);
  if (resolution.kind === "ambiguous") {
    throw ambiguous(project, symbolName, resolution.groups, resolution.note);
  }
  const target: SymbolMatch = resolution.group.members[0]!;
  const oldName = target.node.name;
  const base = {
    operation: "rename",
    project_name: project.name,
    old_name: oldName,
    new_name: newName,
    symbol: {
      name_path: baseNamePath(target.node),
      kind: symbolKindName(target.node.kind),
      file_path: target.node.relPath,
      line: target.node.selectionRange.start.line + 1,
    },
    ...(resolution.note ? { note: resolution.note } : {}),
  };
  if (newName === oldName) {
    return toJson({
      tool_name: TOOL_NAME,
      status: "unchanged",
      ...base,
      message: `'${base.symbol.name_path}' is already named '${newName}'; nothing to change.`,
    });
  }
  const { edit, server, notAnalysed } = await requestRename(
    index,
    target,
    newName,
    requestOptions(ctx),
  );
  const relPathOf = (uri: string) => server.relPathOf(uri);
  const unexplained = notAnalysed.length > 0 ? { not_analysed: notedList(notAnalysed) } : {};
  const nothing = () =>
    new ToolError(
      `The language server found nothing to rename for '${base.symbol.name_path}' in ` +
        `'${target.node.relPath}'. Check the symbol with get_symbol_info.`,
    );
  if (args.execute_immediately !== true) {
    const store = ctx.session.codeActions(project);
    const preview: EditPreview = await previewWorkspaceEdit(store, project, edit, relPathOf, {
      title: `Rename '${base.symbol.name_path}' to '${newName}'`,
      oldName,
      newName,
      relPath: target.node.relPath,
      line: base.symbol.line,
      serverId: server.id,
    });
    const stored = store.get(preview.action_id)!;
    if (preview.totalChanges === 0) {
      store.remove(stored.id);
      throw nothing();
    }
    const actionId = await workflowActionId(ctx.session, project, stored, oldName, newName);
    const summary = {
      tool_name: TOOL_NAME,
      status: "preview",
      action_id: actionId,
      ...base,
      files_affected: Object.keys(preview.files).length,
      total_edits: preview.changes.length,
      affected_files: affectedFiles(preview.files),
      ...unexplained,
      ...(preview.fileOperations ? { file_operations: preview.fileOperations } : {}),
      message: `Nothing was changed. Apply with execute_code_action(action_id="${actionId}"); ` +
        "list_code_actions lists it until its files change.",
    };
    return {
      text: toJson({ ...summary, changes: preview.changes }),
      shorter: [{
        note: "(the changes left out to fit max_answer_chars)",
        text: () => toJson(summary),
      }],
    };
  }
  // The whole edit, file moves included: what executing the preview would apply.
  const plan = await planWorkspaceEdit(project, edit, { relPathOf });
  if (plan.files.every((p) => p.after === p.before) && plan.moves.length === 0) throw nothing();
  refuseUnexplained(oldName, notAnalysed, args.force === true);
  ctx.signal.throwIfAborted();
  const changed = await applyWorkspaceEdit(pctx, edit, { relPathOf });
  const edited = changed.filter((f) => f.movedTo === undefined);
  const moves = changed.filter((f) => f.movedTo !== undefined);
  return toJson({
    tool_name: TOOL_NAME,
    status: "applied",
    ...base,
    files_affected: edited.length,
    total_edits: edited.reduce((n, f) => n + f.editCount, 0),
    affected_files: edited.map((f) => ({ file: f.relPath, edits: f.editCount })),
    ...unexplained,
    ...(moves.length > 0
      ? { file_operations: moves.map((m) => `moved ${m.relPath} to ${m.movedTo}`) }
      : {}),
  });
}
