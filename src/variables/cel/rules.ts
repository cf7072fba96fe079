/**
 * Compilation and evaluation of single `x-kubernetes-validations` rules.
 *
 * @bufbuild/cel has no exported type checker, so compile-time checks are an AST walk: it finds
 * `oldSelf` (transition rules), undeclared identifiers/functions (compile errors, as in the API
 * server) and Kubernetes library functions this module does not implement (the rule is then
 * marked unsupported and reported as "not evaluated", never passed silently).
 */
import { isCelError, parse, plan, type CelEnv, type CelInput, type CelResult } from '@bufbuild/cel';
import type { ValidationRuleDef } from '../schema.js';
import { KUBERNETES_NAMESPACES, KUBERNETES_ONLY_FUNCTIONS, SUPPORTED_FUNCTIONS, TYPE_IDENTIFIERS } from './library.js';

type Parsed = ReturnType<typeof parse>;
type Expr = Parsed['expr'];
type Program = (ctx: Record<string, CelInput>) => CelResult;

interface CompiledExpression {
  program?: Program;
  usesOldSelf: boolean;
  /** Why the expression cannot be evaluated by this renderer (unsupported library function). */
  unsupported?: string;
  /** Compile error detail as the API server words it. */
  compileError?: string;
}

export interface CompiledRule {
  def: ValidationRuleDef;
  rule: CompiledExpression;
  message?: CompiledExpression;
}

interface Analysis {
  usesOldSelf: boolean;
  unsupported: string[];
  undeclared: { name: string; id: bigint }[];
}

function analyse(expr: Expr): Analysis {
  const a: Analysis = { usesOldSelf: false, unsupported: [], undeclared: [] };
  const walk = (e: Expr | undefined, scope: ReadonlySet<string>): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr': {
        const n = k.value.name;
        if (scope.has(n) || n === 'self' || TYPE_IDENTIFIERS.has(n)) return;
        if (n === 'oldSelf') {
          a.usesOldSelf = true;
          return;
        }
        a.undeclared.push({ name: n, id: e.id });
        return;
      }
      case 'selectExpr':
        walk(k.value.operand, scope);
        return;
      case 'callExpr': {
        const { function: fn, target, args } = k.value;
        const t = target?.exprKind;
        if (t?.case === 'identExpr' && KUBERNETES_NAMESPACES.has(t.value.name) && !scope.has(t.value.name)) {
          a.unsupported.push(`${t.value.name}.${fn}`);
        } else {
          walk(target, scope);
          if (/^[_!@-]/.test(fn)) {
            // operators and internal helpers
          } else if (SUPPORTED_FUNCTIONS.has(fn)) {
            // implemented
          } else if (KUBERNETES_ONLY_FUNCTIONS.has(fn)) a.unsupported.push(fn);
          else a.undeclared.push({ name: fn, id: e.id });
        }
        for (const arg of args) walk(arg, scope);
        return;
      }
      case 'listExpr':
        for (const el of k.value.elements) walk(el, scope);
        return;
      case 'structExpr':
        if (k.value.messageName) a.unsupported.push(`message construction ${k.value.messageName}`);
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value, scope);
          walk(entry.value, scope);
        }
        return;
      case 'comprehensionExpr': {
        const c = k.value;
        walk(c.iterRange, scope);
        walk(c.accuInit, scope);
        const inner = new Set(scope);
        for (const v of [c.iterVar, c.iterVar2, c.accuVar]) if (v) inner.add(v);
        walk(c.loopCondition, inner);
        walk(c.loopStep, inner);
        walk(c.result, inner);
        return;
      }
      default:
        return;
    }
  };
  walk(expr, new Set());
  return a;
}

/** cel-go style location + snippet: `<input>:L:C: msg\n | src\n | ..^`. */
function located(source: string, offset: number | undefined, msg: string): string {
  if (offset === undefined || offset < 0) return `ERROR: <input>:1:1: ${msg}`;
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = offset - lineStart;
  const srcLine = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${msg}\n | ${srcLine}\n | ${'.'.repeat(col)}^`;
}

function compileExpression(env: CelEnv, source: string): CompiledExpression {
  let parsed: Parsed;
  try {
    parsed = parse(source);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // Optional field selection (`a.?b`, `l[?0]`) is valid Kubernetes CEL the parser here lacks.
    if (/\.\?[A-Za-z_]|\[\?/.test(source))
      return {
        usesOldSelf: /\boldSelf\b/.test(source),
        unsupported: 'optional field selection syntax is not supported',
      };
    return { usesOldSelf: false, compileError: `compilation failed: ERROR: ${msg}` };
  }
  const a = analyse(parsed.expr);
  if (a.undeclared.length > 0) {
    const positions = parsed.sourceInfo?.positions ?? {};
    const details = a.undeclared.map((u) => {
      const pos = (positions as Record<string, number>)[u.id.toString()];
      return located(source, pos, `undeclared reference to '${u.name}' (in container '')`);
    });
    return { usesOldSelf: a.usesOldSelf, compileError: `compilation failed: ${details.join('\n')}` };
  }
  if (a.unsupported.length > 0) {
    const names = [...new Set(a.unsupported)];
    return {
      usesOldSelf: a.usesOldSelf,
      unsupported: `unsupported CEL function${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}`,
    };
  }
  try {
    return { usesOldSelf: a.usesOldSelf, program: plan(env, parsed) };
  } catch (e) {
    return {
      usesOldSelf: a.usesOldSelf,
      compileError: `compilation failed: ERROR: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

export function compileRule(env: CelEnv, def: ValidationRuleDef): CompiledRule {
  const compiled: CompiledRule = { def, rule: compileExpression(env, def.rule) };
  if (def.messageExpression.trim() !== '') compiled.message = compileExpression(env, def.messageExpression);
  return compiled;
}

/** cel-go's wording for the common runtime errors @bufbuild/cel reports differently. */
function celGoError(message: string): string {
  const m = /^field not found: (.*)$/.exec(message) ?? /^key not found: (.*)$/.exec(message);
  if (m) return `no such key: ${m[1]}`;
  return message;
}

export type Evaluation = { ok: true; value: unknown } | { ok: false; error: string };

export function evaluate(program: Program, activation: Record<string, CelInput>): Evaluation {
  let r: CelResult;
  try {
    r = program(activation);
  } catch (e) {
    return { ok: false, error: celGoError(e instanceof Error ? e.message : String(e)) };
  }
  if (isCelError(r)) return { ok: false, error: celGoError(r.message) };
  return { ok: true, value: r };
}

/** `ruleErrorString`: the trimmed message if any, else the trimmed rule. */
export const ruleErrorString = (d: ValidationRuleDef): string =>
  d.message.length > 0 ? d.message.trim() : d.rule.trim();

/** `ruleMessageOrDefault`. */
export const ruleMessageOrDefault = (d: ValidationRuleDef): string =>
  d.message.length === 0 ? `failed rule: ${ruleErrorString(d)}` : d.message.trim();
