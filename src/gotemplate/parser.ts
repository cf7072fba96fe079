/**
 * Parser for Go's text/template: builds the parse trees (main template plus {{define}}/{{block}}
 * definitions) with Go's checks and error texts ("template: tpl:LINE: ...").
 */
import { T, type Item, lex } from './lexer.js';
import type {
  ArgNode,
  CommandNode,
  ElseNode,
  EndNode,
  ListNode,
  Node,
  NonEmpty,
  NumberNode,
  PipeNode,
  TemplateNode,
  TreeRef,
  VariableNode,
} from './nodes.js';
import { nodeString } from './nodes.js';
import { GoComplex, at, goInt } from './values.js';

export class ParseError extends Error {}

export interface Tree {
  name: string;
  root: ListNode;
}

const goSpaceRe = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

function isEmptyTree(n: Node | null): boolean {
  if (n === null) return true;
  switch (n.type) {
    case 'comment':
      return true;
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return goSpaceRe.test(n.text);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// strconv helpers

/** strconv.Unquote for "..." and `...` literals (bytes decoded as UTF-8). */
function unquote(s: string): string {
  const q = s[0];
  if (s.length < 2 || s[s.length - 1] !== q) throw new ParseError('invalid syntax');
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) throw new ParseError('invalid syntax');
    return body.replace(/\r/g, '');
  }
  if (q !== '"' && q !== "'") throw new ParseError('invalid syntax');
  if (!body.includes('\\')) {
    if (body.includes(q) || body.includes('\n')) throw new ParseError('invalid syntax');
    if (q === "'") {
      if ([...body].length !== 1) throw new ParseError('invalid syntax');
    }
    return body;
  }
  const bytes: number[] = [];
  let i = 0;
  while (i < body.length) {
    const [cp, isByte, next] = unquoteChar(body, i, q);
    if (isByte) bytes.push(cp);
    else for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
    i = next;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** strconv.UnquoteChar at index i: [codepoint or byte, isRawByte, next index]. */
function unquoteChar(s: string, i: number, quote: string): [number, boolean, number] {
  const c = s.codePointAt(i);
  if (c === undefined) throw new ParseError('invalid syntax');
  const ch = String.fromCodePoint(c);
  if (ch === quote && (quote === "'" || quote === '"')) throw new ParseError('invalid syntax');
  if (ch !== '\\') return [c, false, i + ch.length];
  const e = s[i + 1];
  if (e === undefined) throw new ParseError('invalid syntax');
  i += 2;
  switch (e) {
    case 'a':
      return [7, false, i];
    case 'b':
      return [8, false, i];
    case 'f':
      return [12, false, i];
    case 'n':
      return [10, false, i];
    case 'r':
      return [13, false, i];
    case 't':
      return [9, false, i];
    case 'v':
      return [11, false, i];
    case 'x':
    case 'u':
    case 'U': {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = s.slice(i, i + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) throw new ParseError('invalid syntax');
      const v = parseInt(hex, 16);
      if (e === 'x') return [v, true, i + n];
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) throw new ParseError('invalid syntax');
      return [v, false, i + n];
    }
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      const oct = s.slice(i - 1, i + 2);
      if (!/^[0-7]{3}$/.test(oct)) throw new ParseError('invalid syntax');
      const v = parseInt(oct, 8);
      if (v > 255) throw new ParseError('invalid syntax');
      return [v, true, i + 2];
    }
    case '\\':
      return [92, false, i];
    case "'":
    case '"':
      if (e !== quote) throw new ParseError('invalid syntax');
      return [e.charCodeAt(0), false, i];
    default:
      throw new ParseError('invalid syntax');
  }
}

function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s[0] === '-' || s[0] === '+') s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s.charAt(1))) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s.charAt(i);
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseUint(s, 0, 64) */
function parseUint0(s: string): bigint | undefined {
  if (s.length === 0) return undefined;
  const s0 = s;
  let base = 10;
  if (s[0] === '0') {
    if (s.length >= 3 && (s[1] === 'b' || s[1] === 'B')) {
      base = 2;
      s = s.slice(2);
    } else if (s.length >= 3 && (s[1] === 'o' || s[1] === 'O')) {
      base = 8;
      s = s.slice(2);
    } else if (s.length >= 3 && (s[1] === 'x' || s[1] === 'X')) {
      base = 16;
      s = s.slice(2);
    } else {
      base = 8;
      s = s.slice(1);
    }
  }
  let n = 0n;
  const B = BigInt(base);
  let sawUnderscore = false;
  for (const c of s) {
    if (c === '_') {
      sawUnderscore = true;
      continue;
    }
    const d = parseInt(c, 36);
    if (Number.isNaN(d) || d >= base) return undefined;
    n = n * B + BigInt(d);
    if (n > 0xffffffffffffffffn) return undefined;
  }
  if (sawUnderscore && !underscoreOK(s0)) return undefined;
  return n;
}

export function parseInt0(s: string): bigint | undefined {
  let neg = false;
  let t = s;
  if (t[0] === '+' || t[0] === '-') {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  const u = parseUint0(t);
  if (u === undefined) return undefined;
  if (!neg && u > 0x7fffffffffffffffn) return undefined;
  if (neg && u > 0x8000000000000000n) return undefined;
  return neg ? -u : u;
}

/** strconv.ParseFloat(s, 64) restricted to what the lexer can produce. */
export function parseGoFloat(s: string): number | undefined {
  if (s.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    s = s.replace(/_/g, '');
  }
  let sign = 1;
  let t = s;
  if (t[0] === '+' || t[0] === '-') {
    if (t[0] === '-') sign = -1;
    t = t.slice(1);
  }
  const lower = t.toLowerCase();
  if (lower === 'inf' || lower === 'infinity') return sign * Infinity;
  if (lower === 'nan') return NaN;
  let v: number;
  if (/^0[xX]/.test(t)) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(t);
    if (!m) return undefined;
    const [, whole = '', fraction = '', exponent = ''] = m;
    const digits = whole + fraction;
    if (digits === '') return undefined;
    let exp = parseInt(exponent, 10) - 4 * fraction.length;
    let mant = BigInt('0x' + (digits || '0'));
    if (mant === 0n) return sign * 0;
    // normalise mantissa to <= 64 bits keeping sticky bit
    while (mant >= 1n << 64n) {
      const sticky = mant & 1n;
      mant = (mant >> 1n) | sticky;
      exp++;
    }
    v = Number(mant) * 2 ** exp;
    if (!Number.isFinite(v)) {
      v = Number(mant) * 2 ** (exp - 64) * 2 ** 64;
    }
  } else {
    if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
    v = Number(t);
  }
  if (!Number.isFinite(v)) return undefined;
  return sign * v;
}

// ---------------------------------------------------------------------------------------------

export function parseTemplates(text: string, name: string, hasFunction: (name: string) => boolean): Map<string, Tree> {
  const items = lex(text, !hasFunction('break'), !hasFunction('continue'));
  const treeSet = new Map<string, Tree>();
  const ref: TreeRef = { parseName: name, text };
  const state = new ParserState(items, ref, hasFunction, treeSet);
  state.parseMain(name);
  return treeSet;
}

class ParserState {
  idx = 0;
  vars: string[] = ['$'];
  rangeDepth = 0;
  actionLine = 0;
  lastLine = 1;

  constructor(
    readonly items: Item[],
    readonly tree: TreeRef,
    readonly hasFunction: (name: string) => boolean,
    readonly treeSet: Map<string, Tree>,
  ) {}

  // --- token stream

  next(): Item {
    const it = at(this.items, this.idx);
    if (this.idx < this.items.length - 1) this.idx++;
    else this.idx = this.items.length; // sticky at the end
    this.lastLine = it.line;
    return it;
  }
  backup(): void {
    this.idx--;
  }
  peek(): Item {
    const it = this.next();
    this.backup();
    return it;
  }
  nextNonSpace(): Item {
    let it: Item;
    do it = this.next();
    while (it.typ === T.Space);
    return it;
  }
  peekNonSpace(): Item {
    const it = this.nextNonSpace();
    this.backup();
    return it;
  }

  errorf(msg: string): never {
    throw new ParseError(`template: ${this.tree.parseName}:${this.lastLine}: ${msg}`);
  }

  itemString(it: Item): string {
    if (it.typ === T.EOF) return 'EOF';
    if (it.typ === T.Error) return it.val;
    if (it.typ > T.Keyword) return `<${it.val}>`;
    if (it.val.length > 10) {
      // %.10q: quote the first 10 runes
      return quoteShort(it.val) + '...';
    }
    return JSON.stringify(it.val);
  }

  unexpected(it: Item, context: string): never {
    if (it.typ === T.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== it.line) {
        extra = ` in action started at ${this.tree.parseName}:${this.actionLine}`;
        if (it.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(it.val + extra);
    }
    this.errorf(`unexpected ${this.itemString(it)} in ${context}`);
  }

  expect(typ: T, context: string): Item {
    const it = this.nextNonSpace();
    if (it.typ !== typ) this.unexpected(it, context);
    return it;
  }

  // --- structure

  newList(pos: number): ListNode {
    return { type: 'list', pos, tree: this.tree, nodes: [] };
  }

  add(name: string, root: ListNode): void {
    const existing = this.treeSet.get(name);
    if (existing === undefined || isEmptyTree(existing.root)) {
      this.treeSet.set(name, { name, root });
      return;
    }
    if (!isEmptyTree(root)) this.errorf(`template: multiple definition of template ${JSON.stringify(name)}`);
  }

  parseMain(name: string): void {
    const root = this.newList(this.peek().pos);
    while (this.peek().typ !== T.EOF) {
      if (this.peek().typ === T.LeftDelim) {
        const save = this.idx;
        this.next();
        if (this.nextNonSpace().typ === T.Define) {
          this.parseDefinition();
          continue;
        }
        this.idx = save;
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`);
      root.nodes.push(n);
    }
    this.add(name, root);
  }

  /** Parses `"name"}} ... {{end}}` after {{define with a fresh variable scope. */
  parseDefinition(): void {
    const context = 'define clause';
    const it = this.nextNonSpace();
    if (it.typ !== T.String && it.typ !== T.RawString) this.unexpected(it, context);
    const name = this.unquoteOrFail(it.val);
    this.expect(T.RightDelim, context);
    const saved = this.saveScope();
    const [root, end] = this.itemList();
    this.restoreScope(saved);
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.add(name, root);
  }

  saveScope(): [string[], number] {
    const s: [string[], number] = [this.vars, this.rangeDepth];
    this.vars = ['$'];
    this.rangeDepth = 0;
    return s;
  }
  restoreScope(s: [string[], number]): void {
    this.vars = s[0];
    this.rangeDepth = s[1];
  }

  unquoteOrFail(s: string): string {
    try {
      return unquote(s);
    } catch {
      this.errorf('invalid syntax');
    }
  }

  itemList(): [ListNode, EndNode | ElseNode] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().typ !== T.EOF) {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  textOrAction(): Node {
    const it = this.nextNonSpace();
    switch (it.typ) {
      case T.Text:
        return { type: 'text', pos: it.pos, tree: this.tree, text: it.val };
      case T.LeftDelim: {
        this.actionLine = it.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      }
      default:
        this.unexpected(it, 'input');
    }
  }

  action(): Node {
    const it = this.nextNonSpace();
    switch (it.typ) {
      case T.Block:
        return this.blockControl();
      case T.Break:
      case T.Continue: {
        const word = it.typ === T.Break ? 'break' : 'continue';
        const tok = this.nextNonSpace();
        if (tok.typ !== T.RightDelim) this.unexpected(tok, `{{${word}}}`);
        if (this.rangeDepth === 0) this.errorf(`{{${word}}} outside {{range}}`);
        return { type: word, pos: it.pos, tree: this.tree };
      }
      case T.Else: {
        const p = this.peekNonSpace();
        // {{else if}} and (Go 1.23+) {{else with}} leave the keyword for control() to chain (parse.go, elseControl).
        if (p.typ === T.If || p.typ === T.With) return { type: 'else', pos: p.pos, tree: this.tree, line: p.line };
        const tok = this.expect(T.RightDelim, 'else');
        return { type: 'else', pos: tok.pos, tree: this.tree, line: tok.line };
      }
      case T.End: {
        const tok = this.expect(T.RightDelim, 'end');
        return { type: 'end', pos: tok.pos, tree: this.tree };
      }
      case T.If:
        return this.control('if');
      case T.Range:
        return this.control('range');
      case T.With:
        return this.control('with');
      case T.Template:
        return this.templateControl();
    }
    this.backup();
    const tok = this.peek();
    const pipe = this.pipeline('command', T.RightDelim);
    return { type: 'action', pos: tok.pos, tree: this.tree, line: tok.line, pipe };
  }

  control(kind: 'if' | 'range' | 'with'): Node {
    const nvars = this.vars.length;
    const pipe = this.pipeline(kind, T.RightDelim);
    if (kind === 'range') this.rangeDepth++;
    let [list, next] = this.itemList();
    if (kind === 'range') this.rangeDepth--;
    let elseList: ListNode | null = null;
    if (next.type === 'else') {
      // {{if a}}{{else if b}}{{end}} is {{if a}}{{else}}{{if b}}{{end}}{{end}}; likewise `with` (parse.go, parseControl).
      const chained = kind === 'if' ? T.If : kind === 'with' ? T.With : undefined;
      if (chained !== undefined && this.peek().typ === chained) {
        this.next();
        elseList = this.newList(next.pos);
        elseList.nodes.push(this.control(kind));
      } else {
        [elseList, next] = this.itemList();
        if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`);
      }
    }
    this.vars.length = nvars;
    if (kind === 'range') {
      return { type: 'range', pos: pipe.pos, tree: this.tree, line: pipe.line, pipe, list, elseList };
    }
    return { type: kind, pos: pipe.pos, tree: this.tree, line: pipe.line, pipe, list, elseList };
  }

  parseTemplateName(it: Item, context: string): string {
    if (it.typ === T.String || it.typ === T.RawString) return this.unquoteOrFail(it.val);
    this.unexpected(it, context);
  }

  blockControl(): TemplateNode {
    const context = 'block clause';
    const it = this.nextNonSpace();
    const name = this.parseTemplateName(it, context);
    const pipe = this.pipeline(context, T.RightDelim);
    const saved = this.saveScope();
    const [root, end] = this.itemList();
    this.restoreScope(saved);
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.add(name, root);
    return { type: 'template', pos: it.pos, tree: this.tree, line: it.line, name, pipe };
  }

  templateControl(): TemplateNode {
    const context = 'template clause';
    const it = this.nextNonSpace();
    const name = this.parseTemplateName(it, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== T.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, T.RightDelim);
    }
    return { type: 'template', pos: it.pos, tree: this.tree, line: it.line, name, pipe };
  }

  newVariable(pos: number, name: string): VariableNode {
    return { type: 'variable', pos, tree: this.tree, ident: splitNames(name) };
  }

  pipeline(context: string, end: T): PipeNode {
    const first = this.peekNonSpace();
    const pipe: PipeNode = {
      type: 'pipe',
      pos: first.pos,
      tree: this.tree,
      line: first.line,
      isAssign: false,
      decl: [],
      cmds: [],
    };
    decls: for (;;) {
      const mark = this.idx;
      const v = this.peekNonSpace();
      if (v.typ === T.Variable) {
        this.next();
        const afterVar = this.peek();
        const nx = this.peekNonSpace();
        if (nx.typ === T.Assign || nx.typ === T.Declare) {
          pipe.isAssign = nx.typ === T.Assign;
          this.nextNonSpace();
          pipe.decl.push(this.newVariable(v.pos, v.val));
          this.vars.push(v.val);
        } else if (nx.typ === T.Char && nx.val === ',') {
          this.nextNonSpace();
          pipe.decl.push(this.newVariable(v.pos, v.val));
          this.vars.push(v.val);
          if (context === 'range' && pipe.decl.length < 2) {
            const p = this.peekNonSpace().typ;
            if (p === T.Variable || p === T.RightDelim || p === T.RightParen) continue decls;
            this.errorf('range can only initialize variables');
          }
          this.errorf(`too many declarations in ${context}`);
        } else {
          void afterVar;
          this.idx = mark;
        }
      } else {
        this.idx = mark;
      }
      break;
    }
    for (;;) {
      const it = this.nextNonSpace();
      if (it.typ === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (it.typ) {
        case T.Bool:
        case T.CharConstant:
        case T.Complex:
        case T.Dot:
        case T.Field:
        case T.Identifier:
        case T.Number:
        case T.Nil:
        case T.RawString:
        case T.String:
        case T.Variable:
        case T.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(it, context);
      }
    }
  }

  checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    for (const [i, cmd] of pipe.cmds.entries()) {
      const t = cmd.args[0].type;
      if (i > 0 && (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string')) {
        this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  command(): CommandNode {
    const pos = this.peekNonSpace().pos;
    const args: ArgNode[] = [];
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== null) args.push(operand);
      const it = this.next();
      if (it.typ === T.Space) continue;
      if (it.typ === T.RightDelim || it.typ === T.RightParen) this.backup();
      else if (it.typ !== T.Pipe) this.unexpected(it, 'operand');
      break;
    }
    const [first, ...rest] = args;
    if (first === undefined) this.errorf('empty command');
    return { type: 'command', pos, tree: this.tree, args: [first, ...rest] };
  }

  operand(): ArgNode | null {
    const node = this.term();
    if (node === null) return null;
    if (this.peek().typ === T.Field) {
      const chainPos = this.peek().pos;
      const fields: NonEmpty<string> = [this.next().val.slice(1)];
      while (this.peek().typ === T.Field) fields.push(this.next().val.slice(1));
      switch (node.type) {
        case 'field':
          return { type: 'field', pos: chainPos, tree: this.tree, ident: [...node.ident, ...fields] };
        case 'variable':
          return { type: 'variable', pos: chainPos, tree: this.tree, ident: [...node.ident, ...fields] };
        case 'bool':
        case 'string':
        case 'number':
        case 'nil':
        case 'dot':
          return this.errorf(`unexpected . after term ${JSON.stringify(nodeString(node))}`);
        default:
          return { type: 'chain', pos: chainPos, tree: this.tree, node, field: fields };
      }
    }
    return node;
  }

  term(): ArgNode | null {
    const it = this.nextNonSpace();
    const tree = this.tree;
    switch (it.typ) {
      case T.Identifier:
        if (!this.hasFunction(it.val)) this.errorf(`function ${JSON.stringify(it.val)} not defined`);
        return { type: 'identifier', pos: it.pos, tree, ident: it.val };
      case T.Dot:
        return { type: 'dot', pos: it.pos, tree };
      case T.Nil:
        return { type: 'nil', pos: it.pos, tree };
      case T.Variable: {
        const v = this.newVariable(it.pos, it.val);
        if (!this.vars.includes(v.ident[0])) this.errorf(`undefined variable ${JSON.stringify(v.ident[0])}`);
        return v;
      }
      case T.Field:
        return { type: 'field', pos: it.pos, tree, ident: splitNames(it.val.slice(1)) };
      case T.Bool:
        return { type: 'bool', pos: it.pos, tree, value: it.val === 'true' };
      case T.CharConstant:
      case T.Complex:
      case T.Number:
        return this.newNumber(it);
      case T.LeftParen:
        return this.pipeline('parenthesized pipeline', T.RightParen);
      case T.String:
      case T.RawString:
        return { type: 'string', pos: it.pos, tree, quoted: it.val, text: this.unquoteOrFail(it.val) };
    }
    this.backup();
    return null;
  }

  newNumber(it: Item): NumberNode {
    const text = it.val;
    const n: NumberNode = {
      type: 'number',
      pos: it.pos,
      tree: this.tree,
      text,
      isInt: false,
      isUint: false,
      isFloat: false,
      isComplex: false,
      int64: 0n,
      uint64: 0n,
      float64: 0,
      complex: [0, 0],
      ideal: undefined,
    };
    const simplifyComplex = (): void => {
      n.isFloat = n.complex[1] === 0;
      if (n.isFloat) {
        const f = n.complex[0];
        n.float64 = f;
        n.isInt = Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63;
        if (n.isInt) n.int64 = BigInt(f);
        n.isUint = Number.isInteger(f) && f >= 0 && f < 2 ** 64;
        if (n.isUint) n.uint64 = BigInt(f);
      }
    };
    if (it.typ === T.CharConstant) {
      let cp: number;
      let next: number;
      try {
        [cp, , next] = unquoteChar(text, 1, "'");
      } catch {
        this.errorf('invalid syntax');
      }
      if (text.slice(next) !== "'") this.errorf(`malformed character constant: ${text}`);
      n.int64 = n.uint64 = BigInt(cp);
      n.isInt = n.isUint = n.isFloat = true;
      n.float64 = cp;
    } else if (it.typ === T.Complex) {
      const [, real, imaginary] = /^([+-]?[^+-]*(?:[eEpP][+-][^+-]*)?)([+-].*)i$/.exec(text) ?? [];
      const re = real !== undefined ? parseGoFloat(real) : undefined;
      const im = imaginary !== undefined ? parseGoFloat(imaginary) : undefined;
      if (re === undefined || im === undefined) this.errorf(`illegal number syntax: ${JSON.stringify(text)}`);
      n.isComplex = true;
      n.complex = [re, im];
      simplifyComplex();
    } else {
      let done = false;
      if (text.endsWith('i')) {
        const f = parseGoFloat(text.slice(0, -1));
        if (f !== undefined) {
          n.isComplex = true;
          n.complex = [0, f];
          simplifyComplex();
          done = true;
        }
      }
      if (!done) {
        const u = parseUint0(text);
        if (u !== undefined) {
          n.isUint = true;
          n.uint64 = u;
        }
        const i = parseInt0(text);
        if (i !== undefined) {
          n.isInt = true;
          n.int64 = i;
          if (i === 0n) {
            n.isUint = true;
            n.uint64 = u ?? 0n;
          }
        }
        if (n.isInt) {
          n.isFloat = true;
          n.float64 = Number(n.int64);
        } else if (n.isUint) {
          n.isFloat = true;
          n.float64 = Number(n.uint64);
        } else {
          const f = parseGoFloat(text);
          if (f !== undefined) {
            if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${JSON.stringify(text)}`);
            n.isFloat = true;
            n.float64 = f;
            if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) {
              n.isInt = true;
              n.int64 = BigInt(f);
            }
            if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) {
              n.isUint = true;
              n.uint64 = BigInt(f);
            }
          }
        }
        if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: ${JSON.stringify(text)}`);
      }
    }
    // idealConstant
    const isHexInt = text.length > 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X') && !/[pP]/.test(text);
    const isRuneInt = text[0] === "'";
    if (n.isComplex) n.ideal = new GoComplex(n.complex[0], n.complex[1]);
    else if (n.isFloat && !isHexInt && !isRuneInt && /[.eEpP]/.test(text)) n.ideal = n.float64;
    else if (n.isInt) n.ideal = goInt(n.int64);
    else if (n.isUint) n.idealError = `${text} overflows int`;
    return n;
  }
}

/** The names of a field or variable token, `$x.a.b` or `a.b` (split gives at least one). */
function splitNames(text: string): NonEmpty<string> {
  const [first = '', ...rest] = text.split('.');
  return [first, ...rest];
}

function quoteShort(s: string): string {
  const runes = [...s].slice(0, 10).join('');
  return JSON.stringify(runes);
}
