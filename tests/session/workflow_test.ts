import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
import { z } from "../../src/deps.ts";
import { loadSettings } from "../../src/config/load.ts";
import type { SettingsFile } from "../../src/config/schema.ts";
import { Project } from "../../src/project/project.ts";
import {
  MANUAL_NAME,
  ONBOARDING_WITHOUT_MEMORIES,
  PREPARE_FOR_NEW_CONVERSATION,
  SUMMARIZE_CHANGES,
  THINK_ABOUT_COLLECTED_INFORMATION,
  THINK_ABOUT_TASK_ADHERENCE,
  THINK_ABOUT_WHETHER_YOU_ARE_DONE,
} from "../../src/prompts/workflow.ts";
import { systemPrompt } from "../../src/prompts/system.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import { ALL_TOOLS, CONFIG_TOOLS, MEMORY_TOOLS, WORKFLOW_TOOLS } from "../../src/tools/mod.ts";
import { executeShellCommand } from "../../src/tools/toolchain/execute_shell_command.ts";
import type { Tool, ToolContext } from "../../src/tools/tool.ts";
import { onboarding } from "../../src/tools/session/onboarding.ts";
import { prepareForNewConversation } from "../../src/tools/session/prepare_for_new_conversation.ts";
import { summarizeChanges } from "../../src/tools/session/summarize_changes.ts";
import { thinkAboutWhetherYouAreDone } from "../../src/tools/session/think_about_whether_you_are_done.ts";
import { thinkAboutTaskAdherence } from "../../src/tools/session/think_about_task_adherence.ts";
import { thinkAboutCollectedInformation } from "../../src/tools/session/think_about_collected_information.ts";
import { initialInstructions } from "../../src/tools/session/initial_instructions.ts";
import { checkOnboardingPerformed } from "../../src/tools/session/check_onboarding_performed.ts";

/** Every tool of this issue plus the registry's, once each (whether or not registered yet). */
const TOOLS: Tool[] = [
  ...new Map(
    [...ALL_TOOLS, ...MEMORY_TOOLS, ...CONFIG_TOOLS, ...WORKFLOW_TOOLS, executeShellCommand].map(
      (t) => [t.name, t],
    ),
  ).values(),
];

interface Setup {
  root: string | null;
  session: Session;
  ctx: ToolContext;
  call(tool: Tool, args?: Record<string, unknown>): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

async function setup(
  files: Record<string, string> | null = {},
  over: SettingsFile = {},
): Promise<Setup> {
  const dir = files ? await tempProject(files) : null;
  const settings = await loadSettings({
    globalFile: null,
    overrides: over,
    ...(dir ? { projectRoot: dir.root } : {}),
  });
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: TOOLS,
    project: dir ? Project.open(dir.root, settings) : null,
  });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  return {
    root: dir?.root ?? null,
    session,
    ctx,
    call: async (tool, args = {}) => {
      const parsed = z.strictObject(tool.params).parse(args) as Record<string, unknown>;
      const answer = await tool.handler(parsed, ctx);
      return typeof answer === "string" ? answer : answer.text;
    },
    async [Symbol.asyncDispose]() {
      await session.dispose();
      await dir?.[Symbol.asyncDispose]();
    },
  };
}

Deno.test("check_onboarding_performed: not performed without memories, else lists them", async () => {
  await using s = await setup();
  const before = await s.call(checkOnboardingPerformed);
  assertStringIncludes(before, "Onboarding not performed yet");
  assertStringIncludes(before, "`onboarding`");
  await Deno.mkdir(`${s.root}/.serena/memories`, { recursive: true });
  await Deno.writeTextFile(`${s.root}/.serena/memories/overview.md`, "x");
  await Deno.mkdir(`${s.root}/.sextant/memories`, { recursive: true });
  await Deno.writeTextFile(`${s.root}/.sextant/memories/commands.md`, "y");
  const after = await s.call(checkOnboardingPerformed);
  assertStringIncludes(after, "Onboarding was already performed");
  assertStringIncludes(after, '["commands","overview"]');
});

Deno.test("check_onboarding_performed does not point to onboarding when a mode hides it", async () => {
  await using s = await setup({}, { modes: ["no-onboarding"] });
  const text = await s.call(checkOnboardingPerformed);
  assertStringIncludes(text, "Onboarding not performed yet");
  assert(!text.includes("Call the `onboarding` tool"), text);
});

Deno.test("onboarding: instructions name the project and OS; skipped without write_memory", async () => {
  await using s = await setup();
  const text = await s.call(onboarding);
  assertStringIncludes(text, `'${s.session.project!.name}'`);
  assertStringIncludes(text, "write_memory");
  assertStringIncludes(text, Deno.build.os === "linux" ? "Linux" : "");
  s.session.setModes(["no-memories"]);
  // no-memories hides onboarding itself; the handler still answers sensibly if called.
  assertEquals(await s.call(onboarding), ONBOARDING_WITHOUT_MEMORIES);
});

Deno.test("thinking and guidance tools return their texts", async () => {
  await using s = await setup();
  assertEquals(await s.call(thinkAboutCollectedInformation), THINK_ABOUT_COLLECTED_INFORMATION);
  assertEquals(await s.call(thinkAboutTaskAdherence), THINK_ABOUT_TASK_ADHERENCE);
  assertEquals(await s.call(thinkAboutWhetherYouAreDone), THINK_ABOUT_WHETHER_YOU_ARE_DONE);
  assertEquals(await s.call(summarizeChanges), SUMMARIZE_CHANGES);
  assertEquals(await s.call(prepareForNewConversation), PREPARE_FOR_NEW_CONVERSATION);
});

Deno.test("workflow tools need a project, except initial_instructions", async () => {
  await using s = await setup(null);
  for (const tool of WORKFLOW_TOOLS) {
    if (tool === initialInstructions) continue;
    try {
      await s.call(tool);
      throw new Error(`${tool.name} should need a project`);
    } catch (error) {
      assertStringIncludes((error as Error).message, "No active project", tool.name);
    }
  }
  const manual = await s.call(initialInstructions);
  assertStringIncludes(manual, MANUAL_NAME);
  assertStringIncludes(manual, "No project is active yet: call activate_project");
});

Deno.test("initial_instructions returns the system prompt for the current tool set", async () => {
  await using s = await setup({}, { enable_shell: true });
  const first = await s.call(initialInstructions);
  const project = s.session.project!;
  // Serena's activation message comes once per session, the first time.
  const prompt = systemPrompt(s.session);
  const idAt = prompt.lastIndexOf("\n\nYour session id is");
  assertEquals(
    first,
    `${prompt.slice(0, idAt)}\n\nThe project with name '${project.name}' at ${project.root} ` +
      "is activated.\nFile encoding: utf-8.\nOnboarding has not been performed yet. Ask the " +
      `user whether to perform onboarding and if so, call \`onboarding\`.${prompt.slice(idAt)}`,
  );
  const manual = await s.call(initialInstructions);
  const id = s.session.id;
  assertEquals(manual, systemPrompt(s.session));
  assertStringIncludes(
    manual,
    `\n\nYour session id is \`${id}\`. Pass it as the \`session\` ` +
      "parameter to tools that take one (repl, activate_project).",
  );
  assert(/^[0-9a-f]{8}$/.test(id), id);
  assertStringIncludes(manual, `Active project: '${s.session.project!.name}'`);
  // The default list has no check_onboarding_performed (Serena 2.1), and has Sextant's `edit`.
  assertStringIncludes(manual, "Project memories (list_memories, read_memory)");
  assertStringIncludes(manual, "then `edit` or replace_content with a unique needle");
  // The thinking tools are optional (Serena 1.7): the manual speaks of them only when listed.
  assert(!manual.includes("think_about_task_adherence"));
  assertStringIncludes(manual, "Mode: editing.");
  s.session.setModes(["planning"]);
  const planning = await s.call(initialInstructions);
  assertStringIncludes(planning, "Mode: planning. Do not change any file.");
  assert(!/Tools available:.*\bedit\b/.test(planning));
});

Deno.test("markers and descriptions of this issue's tools", () => {
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const markers = (name: string) => [...(byName.get(name)?.markers ?? [])].sort();
  for (const t of MEMORY_TOOLS) {
    // rename_memory (Serena's newer tool) is optional to keep the default set near 40 tools.
    assertEquals(markers(t.name), t.name === "rename_memory" ? ["optional"] : [], t.name);
  }
  assertEquals(markers("activate_project"), ["no-project"]);
  assertEquals(markers("initial_instructions"), ["no-project"]);
  assertEquals(markers("remove_project"), ["no-project", "optional"]);
  assertEquals(markers("switch_modes"), ["optional"]);
  assertEquals(markers("summarize_changes"), ["optional"]);
  assertEquals(markers("execute_shell_command"), ["can-edit"]);
  for (const name of ["onboarding", "check_onboarding_performed"]) {
    assertEquals(markers(name), [], name);
  }
  // Serena 1.7 dropped these from its default lists: canned text for ~350 characters each.
  for (
    const name of [
      "think_about_collected_information",
      "think_about_task_adherence",
      "think_about_whether_you_are_done",
      "prepare_for_new_conversation",
    ]
  ) {
    assertEquals(markers(name), ["optional"], name);
  }
  for (const tool of [...MEMORY_TOOLS, ...CONFIG_TOOLS, ...WORKFLOW_TOOLS, executeShellCommand]) {
    assert(tool.description.length < 1024, `${tool.name}: description too long`);
    for (const param of Object.keys(tool.params)) assert(/^[a-z_]+$/.test(param), param);
  }
  // Serena 1.7's parameter names (the 2025 names are accepted as aliases), so prompts written
  // for Serena work unchanged.
  assertEquals(Object.keys(byName.get("write_memory")!.params), [
    "memory_name",
    "content",
    "max_chars",
  ]);
  assertEquals(byName.get("write_memory")!.aliases, {
    memory_file_name: "memory_name",
    max_answer_chars: "max_chars",
  });
  assertEquals(Object.keys(byName.get("rename_memory")!.params), ["old_name", "new_name"]);
  assertEquals(Object.keys(byName.get("remove_project")!.params), ["project_name"]);
  assertEquals(Object.keys(byName.get("execute_shell_command")!.params).slice(0, 4), [
    "command",
    "cwd",
    "capture_stderr",
    "max_answer_chars",
  ]);
});

// --- over MCP, with the real server --------------------------------------------------------

Deno.test("e2e workflow tools: onboarding flow, thinking tools and the manual", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": JSON.stringify({
      included_tools: WORKFLOW_TOOLS.map((t) => t.name),
    }),
  });
  const server = await connect(project.root);
  try {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    for (const tool of WORKFLOW_TOOLS) assert(names.includes(tool.name), tool.name);
    const check = await call(server.client, "check_onboarding_performed");
    assertStringIncludes(check.text, "Onboarding not performed yet");
    const prompt = await call(server.client, "onboarding");
    assertStringIncludes(prompt.text, "write_memory");
    await call(server.client, "write_memory", { memory_file_name: "overview", content: "x" });
    assertStringIncludes(
      (await call(server.client, "check_onboarding_performed")).text,
      '["overview"]',
    );
    for (
      const [name, text] of [
        ["think_about_collected_information", THINK_ABOUT_COLLECTED_INFORMATION],
        ["think_about_task_adherence", THINK_ABOUT_TASK_ADHERENCE],
        ["think_about_whether_you_are_done", THINK_ABOUT_WHETHER_YOU_ARE_DONE],
        ["summarize_changes", SUMMARIZE_CHANGES],
        ["prepare_for_new_conversation", PREPARE_FOR_NEW_CONVERSATION],
      ]
    ) {
      assertEquals(await call(server.client, name!), { text: text!, isError: false });
    }
    const first = await call(server.client, "initial_instructions");
    assertStringIncludes(first.text, MANUAL_NAME);
    const instructions = server.client.getInstructions()!;
    const idAt = instructions.lastIndexOf("\n\nYour session id is");
    assertStringIncludes(first.text, `${instructions.slice(0, idAt)}\n\nThe project with name '`);
    assert(first.text.endsWith(instructions.slice(idAt)), first.text);
    assertStringIncludes(first.text, '\n{"memories": ["overview"]}\n');
    // Once per session: the next call is the manual alone.
    const manual = await call(server.client, "initial_instructions");
    assertEquals(manual.text, server.client.getInstructions());
  } finally {
    await server.close();
  }
});

Deno.test("the manual tells the agent whether the shell is on", async () => {
  await using off = await setup();
  assertStringIncludes(
    await off.call(initialInstructions),
    "execute_shell_command is switched off",
  );
  await using on = await setup({}, { enable_shell: true });
  assertStringIncludes(await on.call(initialInstructions), "runs short, non-interactive commands");
});
