/**
 * MCP prompts, resources and argument completion of a session. The workflow texts are prompts
 * (clients show them as slash commands): onboarding, the dev-tools and Ada workflows, the summary
 * of changes and the hand-over. Each loaded project's memories are resources
 * (`sextant://memories/<project>/<name>`, markdown), listed, read and offered by a template whose
 * `project` and `name` arguments complete to the loaded projects and their memories. A client may
 * subscribe to a memory: after each tool call, a subscribed memory whose text changed is announced
 * with `notifications/resources/updated`. Each loaded project's current diagnostics are a resource
 * too (`sextant://diagnostics/<project>`, JSON; see diagnostics_resource.ts, loaded on the first
 * read or subscription), announced after a tool call that wrote into the project changed them.
 * @module
 */
import { BUILTIN_CONTEXTS } from "../config/toolsets.ts";
import { Memories } from "../project/memories.ts";
import type { Project } from "../project/project.ts";
import { memoryRootFor } from "../project/worktree.ts";
import {
  onboardingPrompt,
  PREPARE_FOR_NEW_CONVERSATION,
  SUMMARIZE_CHANGES,
} from "../prompts/workflow.ts";
import type { Session } from "../session/session.ts";
import type { DiagnosticsSubscriptions } from "./diagnostics_resource.ts";
import { ErrorCode, invalidParams, isObject, McpError } from "./jsonrpc.ts";
import type { McpServer, Params } from "./protocol.ts";

/** The server capabilities this module answers for. */
export const PROMPT_RESOURCE_CAPABILITIES = {
  prompts: { listChanged: false },
  resources: { listChanged: false, subscribe: true },
  completions: {},
};

/** A workflow prompt: its description and its text for the session's state. */
interface WorkflowPrompt {
  description: string;
  text(session: Session): string;
}

const PROMPTS: Readonly<Record<string, WorkflowPrompt>> = {
  onboarding: {
    description: "Learn the active project and save what you find as memories.",
    text: (session) =>
      session.project
        ? onboardingPrompt(session.project.name)
        : "No project is active: activate one (activate_project), then run this prompt again.",
  },
  devtools_workflow: {
    description: "The check-fix loop: diagnostics with fix ids, code actions, tests.",
    text: () => BUILTIN_CONTEXTS.devtools!.prompt!,
  },
  ada_workflow: {
    description: "Working on an Ada project: GPR and Alire files, specs and bodies.",
    text: () => BUILTIN_CONTEXTS.ada!.prompt!,
  },
  summarize_changes: {
    description: "Summarize the changes made in this conversation.",
    text: () => SUMMARIZE_CHANGES,
  },
  prepare_for_new_conversation: {
    description: "Save a hand-over memory so a new conversation can continue the work.",
    text: () => PREPARE_FOR_NEW_CONVERSATION,
  },
};

/** The prefix of memory resource URIs; the project and memory names follow, URI-encoded. */
const MEMORY_SCHEME = "sextant://memories/";
const MEMORY_TEMPLATE = `${MEMORY_SCHEME}{project}/{name}`;
/** The prefix of diagnostics resource URIs; the project's name follows, URI-encoded. */
const DIAGNOSTICS_SCHEME = "sextant://diagnostics/";
const DIAGNOSTICS_TEMPLATE = `${DIAGNOSTICS_SCHEME}{project}`;
/** Most completion values MCP lets an answer carry. */
const MAX_COMPLETIONS = 100;

/** The URI of a project's memory (each `/`-separated part of the name encoded on its own). */
export function memoryUri(project: string, name: string): string {
  return MEMORY_SCHEME + encodeURIComponent(project) + "/" +
    name.split("/").map(encodeURIComponent).join("/");
}

/** The project and memory names of a memory URI; null for any other URI. */
export function parseMemoryUri(uri: string): { project: string; name: string } | null {
  if (!uri.startsWith(MEMORY_SCHEME)) return null;
  const [project, ...parts] = uri.slice(MEMORY_SCHEME.length).split("/");
  if (!project || parts.length === 0 || parts.some((p) => p === "")) return null;
  try {
    return {
      project: decodeURIComponent(project),
      name: parts.map(decodeURIComponent).join("/"),
    };
  } catch {
    return null;
  }
}

/** The URI of a project's diagnostics. */
export function diagnosticsUri(project: string): string {
  return DIAGNOSTICS_SCHEME + encodeURIComponent(project);
}

/** The project name of a diagnostics URI; null for any other URI. */
export function parseDiagnosticsUri(uri: string): string | null {
  if (!uri.startsWith(DIAGNOSTICS_SCHEME)) return null;
  const rest = uri.slice(DIAGNOSTICS_SCHEME.length);
  if (rest === "" || rest.includes("/")) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}

/** The projects whose memories are resources: the active one first, then the others loaded. */
function projectsOf(session: Session): Project[] {
  const all = session.projects.list();
  return session.project ? [session.project, ...all.filter((p) => p !== session.project)] : [
    ...all,
  ];
}

function memoriesOf(project: Project): Memories {
  return new Memories(memoryRootFor(project.root, project.settings));
}

/** The text of the memory a URI names, or null (no such memory, or not a memory URI). */
async function memoryText(session: Session, uri: string): Promise<string | null> {
  const parsed = parseMemoryUri(uri);
  const project = parsed && projectsOf(session).find((p) => p.name === parsed.project);
  if (!parsed || !project) return null;
  try {
    return await memoriesOf(project).read(parsed.name);
  } catch {
    return null;
  }
}

/**
 * Answer prompts, resources and completion requests for `session` on `server`. Returns the check
 * to run after each tool call: it announces the subscribed memories whose text changed.
 */
export function servePromptsAndResources(
  server: McpServer,
  session: Session,
): () => Promise<void> {
  /** Subscribed memory URIs with the text last seen (null: none). */
  const subscribed = new Map<string, string | null>();
  const projectNamed = (name: string) => projectsOf(session).find((p) => p.name === name);
  /** Diagnostics subscriptions, made on the first one (the module loads then). */
  let diagnostics: DiagnosticsSubscriptions | null = null;
  const diagnosticsSubscriptions = async () => {
    if (!diagnostics) {
      const { DiagnosticsSubscriptions } = await import("./diagnostics_resource.ts");
      diagnostics ??= new DiagnosticsSubscriptions(
        session,
        projectNamed,
        (uri) => server.sendResourceUpdated({ uri }),
      );
    }
    return diagnostics;
  };
  server.setRequestHandler("resources/subscribe", async (params) => {
    const uri = uriParam("resources/subscribe", params);
    const project = parseDiagnosticsUri(uri);
    if (project !== null) (await diagnosticsSubscriptions()).subscribe(uri, project);
    else subscribed.set(uri, await memoryText(session, uri));
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (params) => {
    const uri = uriParam("resources/unsubscribe", params);
    subscribed.delete(uri);
    diagnostics?.unsubscribe(uri);
    return {};
  });

  server.setRequestHandler("prompts/list", () => ({
    prompts: Object.entries(PROMPTS).map(([name, prompt]) => ({
      name,
      description: prompt.description,
    })),
  }));

  server.setRequestHandler("prompts/get", async (params) => {
    const name = params.name;
    if (typeof name !== "string") throw invalidParams("prompts/get", "'name' must be a string.");
    await session.settled();
    const prompt = Object.hasOwn(PROMPTS, name) ? PROMPTS[name] : undefined;
    if (!prompt) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${name}'. Prompts: ${Object.keys(PROMPTS).join(", ")}.`,
      );
    }
    return {
      description: prompt.description,
      messages: [{
        role: "user" as const,
        content: { type: "text" as const, text: prompt.text(session) },
      }],
    };
  });

  server.setRequestHandler("resources/list", async () => {
    await session.settled();
    const resources = [];
    for (const project of projectsOf(session)) {
      resources.push({
        uri: diagnosticsUri(project.name),
        name: `${project.name}/diagnostics`,
        title: `Diagnostics of ${project.name}`,
        description: "The language servers' diagnostics of the files open in them, as on disk now.",
        mimeType: "application/json",
      });
    }
    for (const project of projectsOf(session)) {
      for (const name of await memoriesOf(project).list()) {
        resources.push({
          uri: memoryUri(project.name, name),
          name: `${project.name}/${name}`,
          title: `Memory '${name}' of ${project.name}`,
          mimeType: "text/markdown",
        });
      }
    }
    return { resources };
  });

  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [{
      uriTemplate: MEMORY_TEMPLATE,
      name: "memory",
      title: "A project memory",
      description: "A memory of a loaded project (project: its name; name: the memory's).",
      mimeType: "text/markdown",
    }, {
      uriTemplate: DIAGNOSTICS_TEMPLATE,
      name: "diagnostics",
      title: "A project's diagnostics",
      description: "The diagnostics of a loaded project's open files (project: its name).",
      mimeType: "application/json",
    }],
  }));

  server.setRequestHandler("resources/read", async (params, extra) => {
    const uri = uriParam("resources/read", params);
    await session.settled();
    const diagnosticsOf = parseDiagnosticsUri(uri);
    if (diagnosticsOf !== null) {
      const project = projectNamed(diagnosticsOf);
      if (!project) {
        throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
      }
      const { projectDiagnosticsText } = await import("./diagnostics_resource.ts");
      const text = await projectDiagnosticsText(session, project, extra.signal);
      diagnostics?.noteRead(uri, text);
      return { contents: [{ uri, mimeType: "application/json", text }] };
    }
    const parsed = parseMemoryUri(uri);
    const project = parsed && projectsOf(session).find((p) => p.name === parsed.project);
    if (!parsed || !project) {
      throw new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
    }
    let text: string;
    try {
      text = await memoriesOf(project).read(parsed.name);
    } catch (error) {
      throw new McpError(
        ErrorCode.ResourceNotFound,
        `Resource not found: ${uri} (${(error as Error).message})`,
        {
          uri,
        },
      );
    }
    return { contents: [{ uri, mimeType: "text/markdown", text }] };
  });

  server.setRequestHandler("completion/complete", async (params) => {
    const { ref, argument } = completionParams(params);
    const context = isObject(params.context) && isObject(params.context.arguments)
      ? params.context.arguments
      : {};
    await session.settled();
    let candidates: string[] = [];
    if (
      ref.type === "ref/resource" && ref.uri === DIAGNOSTICS_TEMPLATE && argument.name === "project"
    ) {
      candidates = projectsOf(session).map((p) => p.name);
    } else if (ref.type === "ref/resource" && ref.uri === MEMORY_TEMPLATE) {
      const projects = projectsOf(session);
      if (argument.name === "project") {
        candidates = projects.map((p) => p.name);
      } else if (argument.name === "name") {
        const project = projects.find((p) => p.name === context.project) ?? projects[0];
        candidates = project ? await memoriesOf(project).list() : [];
      }
    }
    const values = candidates.filter((value) => value.startsWith(argument.value));
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  });

  return async () => {
    // In the background: the call's answer does not wait for the language servers.
    void diagnostics?.afterCall();
    for (const [uri, before] of subscribed) {
      const now = await memoryText(session, uri);
      if (now === before) continue;
      subscribed.set(uri, now);
      await server.sendResourceUpdated({ uri }).catch(() => {});
    }
  };
}

/** A resource request's `uri`; `-32602` without one. */
function uriParam(method: string, params: Params): string {
  if (typeof params.uri !== "string") throw invalidParams(method, "'uri' must be a string.");
  return params.uri;
}

/** What a completion request completes: a prompt's or a resource template's argument. */
interface CompletionParams {
  ref: { type: string; uri?: unknown };
  argument: { name: string; value: string };
}

function completionParams(params: Params): CompletionParams {
  const { ref, argument } = params;
  if (!isObject(ref) || typeof ref.type !== "string") {
    throw invalidParams("completion/complete", "'ref' must be an object with a string 'type'.");
  }
  if (
    !isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string"
  ) {
    throw invalidParams(
      "completion/complete",
      "'argument' must be an object with a string 'name' and 'value'.",
    );
  }
  return {
    ref: { type: ref.type, uri: ref.uri },
    argument: { name: argument.name, value: argument.value },
  };
}
