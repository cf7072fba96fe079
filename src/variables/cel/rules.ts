/**
 * Compilation and evaluation of single `x-kubernetes-validations` rules.
 *
 * @bufbuild/cel has no exported type checker, so compile-time checks are `check.ts`'s: it finds
 * `oldSelf` (transition rules), type errors and undeclared identifiers/functions (compile errors,
 * as in the API server) and Kubernetes library functions this module does not implement (the rule
 * is then marked unsupported and reported as "not evaluated", never passed silently).
 */
import { isCelError, parse, plan, type CelEnv, type CelInput, type CelResult } from '@bufbuild/cel';
import type { ValidationRuleDef } from '../schema.js';
import { check, type CheckResult } from './check.js';
import { estimateCost } from './cost.js';
import { UNKNOWN, type CelType } from './types.js';

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
  /** The checked types (absent when the expression does not parse). */
  checked?: CheckResult;
  /** The estimated maximum cost when it compiles (undefined: not estimated here, `cost.ts`). */
  cost?: bigint;
}

export interface CompiledRule {
  def: ValidationRuleDef;
  rule: CompiledExpression;
  message?: CompiledExpression;
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

const BINARY_OPERATORS = new Set([
  '_==_',
  '_!=_',
  '_<_',
  '_<=_',
  '_>_',
  '_>=_',
  '_+_',
  '_-_',
  '_*_',
  '_/_',
  '_%_',
  '@in',
  '_&&_',
  '_||_',
]);

/**
 * The source offsets cel-go's parser gives calls (parser/parser.go: a function call at its `(`,
 * `visitGlobalCall`/`visitMemberCall`; a binary operator at its token), where @bufbuild/cel gives
 * the function's name (or the `.` before it) and the end of the left operand.
 */
function celGoPositions(expr: Expr, positions: Record<string, number>, source: string): Record<string, number> {
  const out = { ...positions };
  const visit = (e: Expr | undefined): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'callExpr': {
        const id = e.id.toString();
        const at = positions[id];
        if (at !== undefined && BINARY_OPERATORS.has(k.value.function)) {
          const op = source.slice(at).search(/\S/);
          if (op >= 0) out[id] = at + op;
        } else if (at !== undefined && /^[A-Za-z_]/.test(k.value.function)) {
          const open = source.indexOf('(', at);
          if (open >= 0) out[id] = open;
        }
        visit(k.value.target);
        k.value.args.forEach(visit);
        break;
      }
      case 'selectExpr':
        visit(k.value.operand);
        break;
      case 'listExpr':
        k.value.elements.forEach(visit);
        break;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value);
          visit(entry.value);
        }
        break;
      case 'comprehensionExpr':
        for (const x of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result])
          visit(x);
        break;
      default:
    }
  };
  visit(expr);
  return out;
}

/**
 * Parses and checks one expression (`self` of type `self`), as apiextensions' `compileRule` does
 * (schema/cel/compilation.go): a rule must be a bool, a messageExpression a string.
 */
function compileExpression(
  env: CelEnv,
  source: string,
  self: CelType,
  kind: 'rule' | 'messageExpression',
): CompiledExpression {
  const failed = kind === 'rule' ? 'compilation failed' : 'messageExpression compilation failed';
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
    return { usesOldSelf: false, compileError: `${failed}: ERROR: ${msg}` };
  }
  const positions = celGoPositions(parsed.expr, parsed.sourceInfo?.positions ?? {}, source);
  const c = check(parsed.expr, self, positions);
  const base = {
    usesOldSelf: c.usesOldSelf,
    checked: c,
    cost: c.errors.length === 0 ? estimateCost(parsed.expr, c, self) : undefined,
  };
  if (c.errors.length > 0)
    return {
      ...base,
      compileError: `${failed}: ${c.errors.map((e) => located(source, e.offset, e.message)).join('\n')}`,
    };
  const want = kind === 'rule' ? 'bool' : 'string';
  if (c.type.kind !== want && c.type.kind !== 'unknown')
    return {
      ...base,
      compileError:
        kind === 'rule' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string',
    };
  if (c.unsupported.length > 0) {
    const names = [...new Set(c.unsupported)];
    return {
      ...base,
      unsupported: `unsupported CEL function${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}`,
    };
  }
  try {
    return { ...base, program: plan(env, parsed) };
  } catch (e) {
    return { ...base, compileError: `${failed}: ERROR: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Compiles a rule and its messageExpression against `self` (undefined: the type is not known,
 * nothing is reported about types). As in `compileRule`, the messageExpression is compiled only
 * when the rule compiles.
 */
export function compileRule(env: CelEnv, def: ValidationRuleDef, self: CelType = UNKNOWN): CompiledRule {
  const compiled: CompiledRule = { def, rule: compileExpression(env, def.rule, self, 'rule') };
  if (def.messageExpression.trim() !== '' && compiled.rule.compileError === undefined)
    compiled.message = compileExpression(env, def.messageExpression, self, 'messageExpression');
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
