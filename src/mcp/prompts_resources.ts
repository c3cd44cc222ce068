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
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Server,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "../deps_start.ts";
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
  server: Server,
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
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const uri = request.params.uri;
    const project = parseDiagnosticsUri(uri);
    if (project !== null) (await diagnosticsSubscriptions()).subscribe(uri, project);
    else subscribed.set(uri, await memoryText(session, uri));
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    diagnostics?.unsubscribe(request.params.uri);
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: Object.entries(PROMPTS).map(([name, prompt]) => ({
      name,
      description: prompt.description,
    })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    await session.settled();
    const prompt = PROMPTS[request.params.name];
    if (!prompt) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${request.params.name}'. Prompts: ${Object.keys(PROMPTS).join(", ")}.`,
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

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
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

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
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

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    await session.settled();
    const uri = request.params.uri;
    const diagnosticsOf = parseDiagnosticsUri(uri);
    if (diagnosticsOf !== null) {
      const project = projectNamed(diagnosticsOf);
      if (!project) throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
      const { projectDiagnosticsText } = await import("./diagnostics_resource.ts");
      const text = await projectDiagnosticsText(session, project, extra.signal);
      diagnostics?.noteRead(uri, text);
      return { contents: [{ uri, mimeType: "application/json", text }] };
    }
    const parsed = parseMemoryUri(uri);
    const project = parsed && projectsOf(session).find((p) => p.name === parsed.project);
    if (!parsed || !project) {
      // MCP's "resource not found" error code.
      throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
    }
    let text: string;
    try {
      text = await memoriesOf(project).read(parsed.name);
    } catch (error) {
      throw new McpError(-32002, `Resource not found: ${uri} (${(error as Error).message})`, {
        uri,
      });
    }
    return { contents: [{ uri, mimeType: "text/markdown", text }] };
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    await session.settled();
    const { ref, argument } = request.params;
    const context = request.params.context?.arguments ?? {};
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
