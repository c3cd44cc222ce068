/**
 * signature_help: the signature(s) of the function being called at a position.
 * @module
 */
import { LspMethod } from "../../lsp/methods.ts";
import type { SignatureInformation } from "../../deps.ts";
import { ask, describePosition, positionParams, resolvePosition } from "../shared/targets.ts";
import { defineTool } from "../tool.ts";
import { docText, splitHover } from "../shared/hover_markup.ts";
import { textDocumentPosition } from "../shared/targets.ts";
import { toJson } from "../shared/json.ts";

export const signatureHelp = defineTool({
  name: "signature_help",
  description: "Shows the signature(s) of the function being called at a position: put the " +
    "position inside the call's parentheses (e.g. on an argument). With name_path, shows the " +
    'named function\'s signature. Returns {"signatures": [{"label", "parameters", ' +
    '"documentation"}], "activeSignature", "activeParameter"}.',
  params: positionParams,
  markers: ["symbolic-read", "optional"],
  readOnly: true,
  async handler(args, ctx) {
    const target = await resolvePosition(ctx, args);
    const result = await ask<
      | { signatures?: SignatureInformation[]; activeSignature?: number; activeParameter?: number }
      | null
    >(
      target,
      LspMethod.signatureHelp,
      { ...textDocumentPosition(target), context: { triggerKind: 1, isRetrigger: false } },
      "signatureHelpProvider",
      "signature help",
    );
    const signatures = (result?.signatures ?? []).map((s) => {
      const out: Record<string, unknown> = { label: s.label };
      const doc = docText(s.documentation);
      if (doc) out.documentation = doc;
      out.parameters = (s.parameters ?? []).map((p) => {
        const label = Array.isArray(p.label) ? s.label.slice(p.label[0], p.label[1]) : p.label;
        const pd = docText(p.documentation);
        return pd ? { label, documentation: pd } : { label };
      });
      if (s.activeParameter !== undefined) out.activeParameter = s.activeParameter;
      return out;
    });
    if (signatures.length > 0) {
      return toJson({
        found: true,
        signatures,
        activeSignature: result?.activeSignature ?? 0,
        activeParameter: result?.activeParameter ?? 0,
      });
    }
    if (target.symbol) {
      // At a declaration there is no call: its hover is the signature.
      const hovered = await ask<{ contents?: unknown } | null>(
        target,
        LspMethod.hover,
        textDocumentPosition(target),
        "hoverProvider",
        "hover",
      );
      const { code, prose } = splitHover(hovered?.contents);
      if (code) {
        const sig: Record<string, unknown> = { label: code };
        if (prose) sig.documentation = prose;
        return toJson({ found: true, signatures: [sig], source: "hover" });
      }
    }
    return toJson({
      found: false,
      message: `No call at ${describePosition(target)}: put line/column inside the parentheses ` +
        "of a call (e.g. on its first argument).",
    });
  },
});
