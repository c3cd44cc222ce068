/**
 * JavaScript rules: the TypeScript ones, plus the assignments to members tsserver lists
 * (`module.exports.x =`, `this.x =`).
 * @module
 */
import type { Node } from "npm:web-tree-sitter@0.25.10";
import { K, type Rule, unmodelled } from "./core.ts";
import { endingAtTokens, FUNCTION_EXPRESSIONS, TS_RULES } from "./typescript.ts";

/** `exports` or `module.exports`. */
function isExports(node: Node | null): boolean {
  if (node?.type === "identifier") return node.text === "exports";
  return node?.type === "member_expression" && node.text === "module.exports";
}

/** `void 0`, which TypeScript's CommonJS output assigns to each export before defining it. */
function isVoidZero(node: Node | null): boolean {
  return node?.type === "unary_expression" && /^void\s+0$/.test(node.text);
}

/**
 * JavaScript: tsserver lists a CommonJS export `exports.x = value` (a constant, or a function
 * for a function value, beside the function itself), but not one of `void 0` or of a name
 * declared elsewhere (`exports.X = X`); other assignments to members list nothing, except ES5
 * classes (`F.prototype.m = ...`) and `module.exports = ...`, which are not modelled.
 */
const jsAssignment: Rule = (n) => {
  const left = n.childForFieldName("left");
  if (left && left.startIndex !== n.startIndex) return unmodelled("using declaration");
  if (left?.type !== "member_expression") return null;
  if (/\bprototype\b/.test(left.text)) return unmodelled("prototype assignment");
  if (isExports(left)) return unmodelled("module.exports assignment");
  const object = left.childForFieldName("object");
  const property = left.childForFieldName("property");
  if (!isExports(object)) return null;
  let right = n.childForFieldName("right");
  const chained = right?.type === "assignment_expression";
  while (right?.type === "assignment_expression") right = right.childForFieldName("right");
  if (isVoidZero(right)) return null;
  if (chained) return unmodelled("chained export assignment");
  if (property?.type !== "property_identifier" || !right) return unmodelled("computed export");
  if (right.type === "identifier") return null;
  if (right.type === "class") return unmodelled("exported class expression");
  const kind = FUNCTION_EXPRESSIONS.has(right.type) ? K.Function : K.Constant;
  return { name: property.text, kind, node: n, nameNode: property };
};

export const JS_RULES: Readonly<Record<string, Rule>> = {
  ...TS_RULES,
  ...endingAtTokens({ assignment_expression: jsAssignment }),
};
