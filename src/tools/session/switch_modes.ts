/**
 * switch_modes: activates the given modes, which decide with the context what tools the session
 * exposes.
 * @module
 */
import { z } from "../../deps.ts";
import { modeDefinition } from "../../config/toolsets.ts";
import { defineTool } from "../tool.ts";

export const switchModes = defineTool({
  name: "switch_modes",
  description: "Activates modes by name, replacing the current ones, e.g. ['planning', " +
    "'one-shot'] or ['editing', 'interactive']. The tool set changes accordingly.",
  params: {
    modes: z.array(z.string().min(1)).describe("Names of the modes to activate."),
  },
  markers: ["optional"],
  readOnly: false,
  destructive: false,
  handler(args, ctx) {
    const project = ctx.project();
    ctx.session.setModes(args.modes);
    const prompts = ctx.session.modes
      .map((m) => modeDefinition(project.settings, m).prompt)
      .filter((p): p is string => Boolean(p));
    const tools = ctx.session.activeTools().map((t) => t.name);
    return Promise.resolve(
      [
        `Active modes: ${ctx.session.modes.join(", ") || "(none)"}`,
        ...prompts,
        `Currently active tools: ${tools.join(", ")}`,
      ].join("\n"),
    );
  },
});
