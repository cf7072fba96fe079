/**
 * Executor for parsed Go templates: walks the tree with Go's evaluation rules (argument typing,
 * missing keys, truthiness, variable scoping, break/continue) and enforces safety limits.
 */
import { formatValue } from './fmt.js';
import {
  argString,
  errorContext,
  nodeString,
  type ArgNode,
  type ChainNode,
  type CommandNode,
  type FieldNode,
  type IdentifierNode,
  type ListNode,
  type Node,
  type PipeNode,
  type RangeNode,
  type VariableNode,
} from './nodes.js';
import type { Tree } from './parser.js';
import {
  GoFuncError,
  GoInt,
  GoObject,
  type CallContext,
  type GoFunc,
  type GoType,
  type GoValue,
  goInt,
  hasKey,
  isMap,
  isTrue,
  mapElemType,
  sliceElemType,
  sortedKeys,
  typeName,
  ValueTooLarge,
} from './values.js';

export interface Limits {
  maxOutputBytes: number;
  maxSteps: number;
  maxDepth: number;
}

export class ExecError extends Error {}
/** A safety limit was hit (reported as an exec error). */
class LimitError extends ExecError {}

/** A command's operands: the first names what runs, the rest are its arguments. */
type Args = CommandNode['args'];

const MISSING = Symbol('missing');
type Final = GoValue | typeof MISSING;

const BREAK = { brk: true };
const CONTINUE = { cont: true };

/** Go type names for error messages. */
function goTypeString(t: GoType): string {
  switch (t) {
    case 'any':
      return 'interface {}';
    case 'rv':
      return 'reflect.Value';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    case 'time':
      return 'time.Time';
    case 'cert':
      return 'sprig.certificate';
    default:
      return t;
  }
}

function canBeNil(t: GoType | 'none'): boolean {
  return t === 'any' || t === 'rv' || t === 'map' || t === 'slice' || t === 'none';
}

function assignable(v: GoValue, t: GoType): boolean {
  switch (t) {
    case 'any':
    case 'rv':
      return true;
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'float64':
      return typeof v === 'number';
    case 'map':
      return isMap(v) && mapElemType(v) === 'interface {}';
    case 'slice':
      return Array.isArray(v) && sliceElemType(v) === 'interface {}';
    case 'time':
    case 'cert':
      return v instanceof GoObject && v.typeName === (t === 'time' ? 'time.Time' : 'sprig.certificate');
    default:
      return v instanceof GoInt && v.kind === t;
  }
}

/**
 * The type of argument `k`: its parameter's, past them the variadic element's. evalCall checked
 * the number of arguments against the signature first (exec.go, evalCall).
 */
function paramType(fn: GoFunc, k: number): GoType {
  const t = fn.params[k] ?? fn.variadic;
  if (t === undefined) throw new Error(`argument ${k} of ${fn.name} has no parameter`);
  return t;
}

interface Variable {
  name: string;
  value: GoValue;
}

export interface ExecEnv {
  templates: Map<string, Tree>;
  funcs: Map<string, GoFunc>;
  builtinNames: Set<string>;
}

class State implements CallContext {
  out = '';
  vars: Variable[];
  depth = 0;
  steps = 0;
  node: Node | ArgNode | CommandNode | null = null;
  tmplName: string;
  warnings: string[] = [];
  readonly maxBytes: number;

  constructor(
    readonly env: ExecEnv,
    name: string,
    dot: GoValue,
    readonly missingKeyError: boolean,
    readonly limits: Limits,
  ) {
    this.tmplName = name;
    this.vars = [{ name: '$', value: dot }];
    this.maxBytes = limits.maxOutputBytes;
  }

  // --- CallContext
  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }
  charge(n: number): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      this.limitError(`evaluation exceeded the limit of ${this.limits.maxSteps} steps`);
    }
  }

  // --- errors
  errorf(msg: string): never {
    const name = this.tmplName;
    if (this.node === null) throw new ExecError(`template: ${name}: ${msg}`);
    const [location, context] = errorContext(this.node);
    throw new ExecError(`template: ${location}: executing ${JSON.stringify(name)} at <${context}>: ${msg}`);
  }
  limitError(msg: string): never {
    try {
      this.errorf(msg);
    } catch (e) {
      throw new LimitError((e as Error).message);
    }
  }

  write(s: string): void {
    this.out += s;
    if (this.out.length > this.limits.maxOutputBytes) {
      this.limitError(`output exceeded the limit of ${this.limits.maxOutputBytes} bytes`);
    }
  }

  step(): void {
    if (++this.steps > this.limits.maxSteps) {
      this.limitError(`evaluation exceeded the limit of ${this.limits.maxSteps} steps`);
    }
  }

  // --- variables
  push(name: string, value: GoValue): void {
    this.vars.push({ name, value });
  }
  /** The innermost variable of that name: the last one pushed (exec.go, varValue). */
  variable(name: string): Variable {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v?.name === name) return v;
    }
    this.errorf(`undefined variable: ${name}`);
  }
  setVar(name: string, value: GoValue): void {
    this.variable(name).value = value;
  }
  /** The variable `n` from the top of the stack: 1 is the top (exec.go, setTopVar). */
  topVar(n: number): Variable {
    const v = this.vars[this.vars.length - n];
    if (v === undefined) throw new Error(`no variable ${n} from the top of ${this.vars.length}`);
    return v;
  }
  varValue(name: string): GoValue {
    return this.variable(name).value;
  }

  // --- walking
  walk(dot: GoValue, node: Node): void {
    this.node = node;
    this.step();
    switch (node.type) {
      case 'text':
        this.write(node.text);
        return;
      case 'action': {
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return;
      }
      case 'list': {
        const nodes = node.nodes;
        for (const n of nodes) this.walk(dot, n);
        return;
      }
      case 'if':
      case 'with': {
        const mark = this.vars.length;
        const val = this.evalPipeline(dot, node.pipe);
        if (isTrue(val)) {
          this.walk(node.type === 'with' ? val : dot, node.list);
        } else if (node.elseList) this.walk(dot, node.elseList);
        this.vars.length = mark;
        return;
      }
      case 'range':
        this.walkRange(dot, node);
        return;
      case 'template':
        this.walkTemplate(dot, node);
        return;
      case 'break':
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel that unwinds to the enclosing range, never seen as an error
        throw BREAK;
      case 'continue':
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel that unwinds to the enclosing range, never seen as an error
        throw CONTINUE;
      case 'comment':
        return;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  walkRange(dot: GoValue, r: RangeNode): void {
    this.node = r;
    const outer = this.vars.length;
    const val = this.evalPipeline(dot, r.pipe);
    const mark = this.vars.length;
    const ndecl = r.pipe.decl.length;
    const [first, second] = r.pipe.decl;
    const one = (index: GoValue, elem: GoValue): boolean => {
      // `range $i, $e = …` assigns the named variables; `range $i, $e := …` the ones it pushed
      // (exec.go, walkRange oneIteration: setVar when IsAssign, else setTopVar).
      if (r.pipe.isAssign) {
        if (first) this.setVar(first.ident[0], second ? index : elem);
        if (second) this.setVar(second.ident[0], elem);
      } else {
        if (ndecl > 0) this.topVar(1).value = elem;
        if (ndecl > 1) this.topVar(2).value = index;
      }
      try {
        this.walk(elem, r.list);
      } catch (e) {
        if (e === CONTINUE) return true;
        if (e === BREAK) return false;
        throw e;
      } finally {
        this.vars.length = mark;
      }
      return true;
    };
    let ran = false;
    if (Array.isArray(val)) {
      if (val.length > 0) {
        ran = true;
        for (let i = 0; i < val.length; i++) {
          if (!one(goInt(i), val[i])) break;
        }
      }
    } else if (isMap(val)) {
      const keys = sortedKeys(val);
      if (keys.length > 0) {
        ran = true;
        for (const k of keys) {
          if (!one(k, val[k])) break;
        }
      }
    } else if (val instanceof GoInt) {
      // Go 1.22+ ranges over an integer n: 0 ... n-1 of its type, one variable at most (exec.go, walkRange).
      if (ndecl > 1) this.errorf(`can't use ${this.formatted(val)} to iterate over more than one variable`);
      ran = val.v > 0n;
      for (let i = 0n; i < val.v; i++) {
        if (!one(undefined, GoInt.of(val.kind, i))) break;
      }
    } else if (val !== undefined && val !== null) {
      this.errorf(`range can't iterate over ${this.formatted(val)}`);
    }
    if (!ran && r.elseList) this.walk(dot, r.elseList);
    this.vars.length = outer;
  }

  walkTemplate(dot: GoValue, t: Node & { type: 'template' }): void {
    this.node = t;
    const tree = this.env.templates.get(t.name);
    if (tree === undefined) this.errorf(`template ${JSON.stringify(t.name)} not defined`);
    if (this.depth >= this.limits.maxDepth) {
      this.limitError(`exceeded maximum template depth (${this.limits.maxDepth})`);
    }
    const newDot = t.pipe ? this.evalPipeline(dot, t.pipe) : undefined;
    const savedVars = this.vars;
    const savedName = this.tmplName;
    this.vars = [{ name: '$', value: newDot }];
    this.tmplName = t.name;
    this.depth++;
    try {
      this.walk(newDot, tree.root);
    } finally {
      this.depth--;
      this.vars = savedVars;
      this.tmplName = savedName;
    }
  }

  printValue(node: Node, v: GoValue): void {
    this.node = node;
    if (v === undefined) {
      this.write('<no value>');
      return;
    }
    this.write(this.formatted(v));
  }

  /** A value as fmt prints it; one too large to print is a limit error (values.ts MAX_VALUE_TEXT). */
  formatted(v: GoValue): string {
    try {
      return formatValue(v);
    } catch (e) {
      if (e instanceof ValueTooLarge) this.limitError(e.message);
      throw e;
    }
  }

  // --- evaluation
  evalPipeline(dot: GoValue, pipe: PipeNode): GoValue {
    this.node = pipe;
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      if (value === null) value = undefined; // nil interface -> invalid value
    }
    const v = value as GoValue;
    for (const { ident } of pipe.decl) {
      if (pipe.isAssign) this.setVar(ident[0], v);
      else this.push(ident[0], v);
    }
    return v;
  }

  /** Callers pass no arguments (null) only with no final value, as in Go, where args[0] would panic. */
  notAFunction(args: Args | null, final: Final): void {
    if (args !== null && (args.length > 1 || final !== MISSING)) {
      this.errorf(`can't give argument to non-function ${argString(args[0])}`);
    }
  }

  evalCommand(dot: GoValue, cmd: CommandNode, final: Final): GoValue {
    const first = cmd.args[0];
    this.step();
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
    }
    this.node = first;
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        return this.errorf('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
  }

  idealConstant(n: ArgNode & { type: 'number' }): GoValue {
    this.node = n;
    if (n.idealError !== undefined) this.errorf(n.idealError);
    return n.ideal;
  }

  evalFieldNode(dot: GoValue, field: FieldNode, args: Args | null, final: Final): GoValue {
    this.node = field;
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  evalChainNode(dot: GoValue, chain: ChainNode, args: Args | null, final: Final): GoValue {
    this.node = chain;
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${argString(chain)}`);
    const pipe = this.evalArg(dot, 'none', chain.node);
    return this.evalFieldChain(dot, pipe, chain, chain.field, args, final);
  }

  evalVariableNode(dot: GoValue, v: VariableNode, args: Args | null, final: Final): GoValue {
    this.node = v;
    const value = this.varValue(v.ident[0]);
    if (v.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, v, v.ident.slice(1), args, final);
  }

  evalFieldChain(
    dot: GoValue,
    receiver: GoValue,
    node: ArgNode,
    ident: readonly string[],
    args: Args | null,
    final: Final,
  ): GoValue {
    // A value looked up in a map[string]interface{} has the static type interface {}, which is the
    // type Go's "can't evaluate field" names (exec.go, evalField: typ := receiver.Type()).
    let fromMap = false;
    let steps = ident.length - 1;
    for (const name of ident) {
      // Every name but the last steps into the receiver; the last one takes the arguments.
      if (steps-- === 0) return this.evalField(dot, name, node, args, final, receiver, fromMap);
      const map = isMap(receiver);
      receiver = this.evalField(dot, name, node, null, MISSING, receiver, fromMap);
      fromMap = map;
    }
    throw new Error('a field chain without names'); // the parser builds none (nodes.ts, NonEmpty)
  }

  evalField(
    dot: GoValue,
    fieldName: string,
    node: ArgNode,
    args: Args | null,
    final: Final,
    receiver: GoValue,
    fromMap = false,
  ): GoValue {
    if (receiver === undefined) {
      if (this.missingKeyError) this.errorf(`nil data; no entry for key ${JSON.stringify(fieldName)}`);
      return undefined;
    }
    if (receiver === null) this.errorf(`nil pointer evaluating interface {}.${fieldName}`);
    const hasArgs = (args !== null && args.length > 1) || final !== MISSING;
    if (isMap(receiver)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      if (hasKey(receiver, fieldName)) return receiver[fieldName];
      if (this.missingKeyError) this.errorf(`map has no entry for key ${JSON.stringify(fieldName)}`);
      return undefined;
    }
    if (receiver instanceof GoObject) {
      const m = receiver.method(fieldName);
      if (m) return this.evalCall(dot, m, false, node, fieldName, args, final);
      for (const [fname, fv] of receiver.fields()) {
        if (fname === fieldName) {
          if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
          return fv;
        }
      }
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${fromMap ? 'interface {}' : typeName(receiver)}`);
  }

  evalFunction(
    dot: GoValue,
    node: IdentifierNode,
    cmd: CommandNode | IdentifierNode,
    args: Args | null,
    final: Final,
  ): GoValue {
    this.node = node;
    const fn = this.env.funcs.get(node.ident);
    if (fn === undefined) this.errorf(`${JSON.stringify(node.ident)} is not a defined function`);
    return this.evalCall(dot, fn, this.env.builtinNames.has(node.ident), cmd, node.ident, args, final);
  }

  evalCall(
    dot: GoValue,
    fn: GoFunc,
    isBuiltin: boolean,
    node: Node | ArgNode | CommandNode,
    name: string,
    allArgs: Args | null,
    final: Final,
  ): GoValue {
    const args = allArgs !== null ? allArgs.slice(1) : [];
    const params = fn.params;
    let numIn = args.length;
    if (final !== MISSING) numIn++;
    if (fn.variadic !== undefined) {
      if (numIn < params.length) {
        this.errorf(`wrong number of args for ${name}: want at least ${params.length} got ${args.length}`);
      }
    } else if (numIn !== params.length) {
      this.errorf(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }
    if (isBuiltin && (name === 'and' || name === 'or')) {
      let v: GoValue = undefined;
      for (const arg of args) {
        v = this.evalArg(dot, 'rv', arg);
        if (isTrue(v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }
    const argv = new Array<GoValue>(numIn);
    let i = 0;
    for (const arg of args) {
      argv[i] = this.evalArg(dot, paramType(fn, i), arg);
      i++;
    }
    if (final !== MISSING) argv[i] = this.validateType(final, paramType(fn, i));
    if (isBuiltin && name === 'call') {
      // The callee's source text goes first, for call's error message (exec.go, evalCall).
      const first = args[0];
      const callee =
        first !== undefined
          ? nodeString(first)
          : typeof final === 'string'
            ? final
            : `<${final === undefined ? 'invalid' : typeName(final as GoValue)} Value>`;
      argv.unshift(callee);
    }
    try {
      const result = fn.fn(argv, this);
      if (typeof result === 'string') {
        if (result.length > this.limits.maxOutputBytes) {
          this.node = node;
          this.limitError(`result of ${name} exceeded the limit of ${this.limits.maxOutputBytes} bytes`);
        }
      } else if (Array.isArray(result) && result.length > 64) this.charge(result.length >> 4);
      return result;
    } catch (e) {
      if (e instanceof ExecError) throw e;
      if (e instanceof GoFuncError || e instanceof Error) {
        if (e instanceof RangeError && /call stack/.test(e.message)) throw e;
        this.node = node;
        this.errorf(`error calling ${name}: ${e.message}`);
      }
      throw e;
    }
  }

  validateType(value: GoValue, t: GoType | 'none'): GoValue {
    if (t === 'none') return value;
    if (value === undefined) {
      if (t === 'rv') return undefined;
      if (canBeNil(t)) return null;
      this.errorf(`invalid value; expected ${goTypeString(t)}`);
    }
    if (t === 'any' || t === 'rv') return value;
    if (!assignable(value, t)) {
      this.errorf(
        `wrong type for value; expected ${goTypeString(t)}; got ${value === null ? 'interface {}' : typeName(value)}`,
      );
    }
    return value;
  }

  evalArg(dot: GoValue, t: GoType | 'none', n: ArgNode): GoValue {
    this.node = n;
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, t);
      case 'nil':
        if (canBeNil(t)) return t === 'rv' || t === 'none' ? undefined : null;
        return this.errorf(`cannot assign nil to ${goTypeString(t as GoType)}`);
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), t);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, null, MISSING), t);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), t);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, null, MISSING), t);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, null, MISSING), t);
    }
    switch (t) {
      case 'bool':
        if (n.type === 'bool') return n.value;
        return this.errorf(`expected bool; found ${argString(n)}`);
      case 'float64':
        if (n.type === 'number' && n.isFloat) return n.float64;
        return this.errorf(`expected float; found ${argString(n)}`);
      case 'string':
        if (n.type === 'string') return n.text;
        return this.errorf(`expected string; found ${argString(n)}`);
      case 'int':
      case 'int8':
      case 'int16':
      case 'int32':
      case 'int64':
        if (n.type === 'number' && n.isInt) return GoInt.of(t, n.int64);
        return this.errorf(`expected integer; found ${argString(n)}`);
      case 'uint':
      case 'uint8':
      case 'uint16':
      case 'uint32':
      case 'uint64':
      case 'uintptr':
        if (n.type === 'number' && n.isUint) return GoInt.of(t, n.uint64);
        return this.errorf(`expected unsigned integer; found ${argString(n)}`);
      case 'any':
      case 'rv':
      case 'none':
        switch (n.type) {
          case 'bool':
            return n.value;
          case 'number':
            return this.idealConstant(n);
          case 'string':
            return n.text;
        }
    }
    this.errorf(`can't handle ${argString(n)} for arg of type ${goTypeString(t)}`);
  }
}

export function execute(
  env: ExecEnv,
  name: string,
  root: ListNode,
  data: GoValue,
  missingKeyError: boolean,
  limits: Limits,
): { output: string; warnings: string[] } {
  const s = new State(env, name, data, missingKeyError, limits);
  try {
    s.walk(data, root);
  } catch (e) {
    if (e instanceof RangeError && /call stack/.test(e.message)) {
      s.limitError('evaluation nested too deeply (stack exhausted)');
    }
    throw e;
  }
  return { output: s.out, warnings: s.warnings };
}
