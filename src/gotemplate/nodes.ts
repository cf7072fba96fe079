/** Parse-tree nodes of Go's text/template (positions are offsets into the template text). */
import { quote } from './fmt.js';
import type { GoValue } from './values.js';

export interface TreeRef {
  /** Template name used for error locations (ParseName). */
  parseName: string;
  text: string;
}

interface Base {
  pos: number;
  tree: TreeRef;
}

interface TextNode extends Base {
  type: 'text';
  text: string;
}
interface CommentNode extends Base {
  type: 'comment';
  text: string;
}
interface ActionNode extends Base {
  type: 'action';
  line: number;
  pipe: PipeNode;
}
interface IfNode extends Base {
  type: 'if' | 'with';
  line: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | null;
}
export interface RangeNode extends Base {
  type: 'range';
  line: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | null;
}
export interface TemplateNode extends Base {
  type: 'template';
  line: number;
  name: string;
  pipe: PipeNode | null;
}
interface BreakNode extends Base {
  type: 'break';
}
interface ContinueNode extends Base {
  type: 'continue';
}
export interface ListNode extends Base {
  type: 'list';
  nodes: Node[];
}
/** Internal markers produced while parsing {{end}} / {{else}}. */
export interface EndNode extends Base {
  type: 'end';
}
export interface ElseNode extends Base {
  type: 'else';
  line: number;
}

export type Node =
  | TextNode
  | CommentNode
  | ActionNode
  | IfNode
  | RangeNode
  | TemplateNode
  | BreakNode
  | ContinueNode
  | ListNode
  | EndNode
  | ElseNode;

export interface PipeNode extends Base {
  type: 'pipe';
  line: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
/** A list the parser never leaves empty: a command has an operand, a field or variable a name. */
export type NonEmpty<T> = [T, ...T[]];

export interface CommandNode extends Base {
  type: 'command';
  args: NonEmpty<ArgNode>;
}
export interface FieldNode extends Base {
  type: 'field';
  ident: NonEmpty<string>;
}
export interface VariableNode extends Base {
  type: 'variable';
  ident: NonEmpty<string>;
}
export interface ChainNode extends Base {
  type: 'chain';
  node: ArgNode;
  field: NonEmpty<string>;
}
export interface IdentifierNode extends Base {
  type: 'identifier';
  ident: string;
}
interface DotNode extends Base {
  type: 'dot';
}
interface NilNode extends Base {
  type: 'nil';
}
interface BoolNode extends Base {
  type: 'bool';
  value: boolean;
}
interface StringNode extends Base {
  type: 'string';
  quoted: string;
  text: string;
}
export interface NumberNode extends Base {
  type: 'number';
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  uint64: bigint;
  float64: number;
  complex: [number, number];
  /** Value when used as an interface{} (idealConstant), or an error message. */
  ideal: GoValue;
  idealError?: string;
}

export type ArgNode =
  | FieldNode
  | VariableNode
  | ChainNode
  | IdentifierNode
  | DotNode
  | NilNode
  | BoolNode
  | StringNode
  | NumberNode
  | PipeNode;

export function argString(n: ArgNode): string {
  switch (n.type) {
    case 'field':
      return '.' + n.ident.join('.');
    case 'variable':
      return n.ident.join('.');
    case 'chain': {
      const inner = n.node.type === 'pipe' ? '(' + pipeString(n.node) + ')' : argString(n.node);
      return inner + '.' + n.field.join('.');
    }
    case 'identifier':
      return n.ident;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'string':
      return n.quoted;
    case 'number':
      return n.text;
    case 'pipe':
      return pipeString(n);
  }
}

function commandString(c: CommandNode): string {
  return c.args.map((a) => (a.type === 'pipe' ? '(' + pipeString(a) + ')' : argString(a))).join(' ');
}

function pipeString(p: PipeNode): string {
  let s = '';
  if (p.decl.length > 0) s = p.decl.map((v) => v.ident.join('.')).join(', ') + ' := ';
  return s + p.cmds.map(commandString).join(' | ');
}

export function nodeString(n: Node | ArgNode | CommandNode): string {
  switch (n.type) {
    case 'text':
      return quote(n.text);
    case 'comment':
      return '{{' + n.text + '}}';
    case 'action':
      return '{{' + pipeString(n.pipe) + '}}';
    case 'if':
    case 'with':
    case 'range': {
      let s = '{{' + n.type + ' ' + pipeString(n.pipe) + '}}' + nodeString(n.list);
      if (n.elseList) s += '{{else}}' + nodeString(n.elseList);
      return s + '{{end}}';
    }
    case 'template':
      return '{{template ' + quote(n.name) + (n.pipe ? ' ' + pipeString(n.pipe) : '') + '}}';
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'command':
      return commandString(n);
    default:
      return argString(n);
  }
}

/** Go's ErrorContext: "name:line:col" (col in bytes from the line start) and the node text. */
export function errorContext(n: Node | ArgNode | CommandNode): [string, string] {
  const text = n.tree.text.slice(0, n.pos);
  const nl = text.lastIndexOf('\n');
  const lineStart = nl < 0 ? 0 : nl + 1;
  const col = Buffer.byteLength(text.slice(lineStart), 'utf8');
  let lineNum = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineNum++;
  return [`${n.tree.parseName}:${lineNum}:${col}`, nodeString(n)];
}
