/**
 * hover: the type and documentation of the symbol at a position.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import { ask, describePosition, positionParams, resolvePosition } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { hoverKind, splitHover } from "../shared/hover_markup.ts";
import { textDocumentPosition } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";

export const hover = defineTool({
  name: "hover",
  description: "Type and documentation of the symbol at a position (1-based line/column, or " +
    "name_path), as an IDE's hover shows them.",
  params: positionParams,
  markers: ["symbolic-read"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const result = await ask<{ contents?: unknown } | null>(
      target,
      LspMethod.hover,
      textDocumentPosition(target),
      "hoverProvider",
      "hover",
    );
    const { code, prose } = splitHover(result?.contents);
    if (!code && !prose) {
      return toJson({ found: false, message: `No hover at ${describePosition(target)}.` });
    }
    const answer: Record<string, unknown> = { found: true, contents: code || prose };
    if (code && prose) answer.documentation = prose;
    const kind = hoverKind(code);
    if (kind) answer.kind = kind;
    return toJson(answer);
  },
});
