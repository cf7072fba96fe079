/**
 * Lexer for Go's text/template language (default delimiters `{{` `}}`), producing the token
 * stream Go's parser consumes, with byte-compatible rules for trim markers, comments and numbers.
 */
import { runeAt } from './values.js';

export const enum T {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // keywords (must stay after Keyword)
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  typ: T;
  pos: number;
  val: string;
  line: number;
}

const KEYWORDS: Record<string, T> = {
  '.': T.Dot,
  block: T.Block,
  break: T.Break,
  continue: T.Continue,
  define: T.Define,
  else: T.Else,
  end: T.End,
  if: T.If,
  range: T.Range,
  nil: T.Nil,
  template: T.Template,
  with: T.With,
};

const LEFT = '{{';
const RIGHT = '}}';

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

const alnumRe = /^[\p{L}\p{Nd}_]$/u;
function isAlphaNumeric(c: string | undefined): c is string {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 0x80) {
    return c === '_' || (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return alnumRe.test(c);
}

function hasLeftTrimMarker(s: string, i: number): boolean {
  return s[i] === '-' && isSpace(s[i + 1]);
}
function hasRightTrimMarker(s: string, i: number): boolean {
  return isSpace(s[i]) && s[i + 1] === '-';
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

function describeRune(c: string): string {
  const cp = runeAt(c);
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${c}'`;
}

/** Scans the whole input. The last item is EOF or Error. */
export function lex(input: string, breakOK = true, continueOK = true): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth: number;

  // Go tracks `line` incrementally while scanning; we recount per emitted/ignored span.
  const ignore = (): void => {
    line += countNewlines(input, start, pos);
    start = pos;
    startLine = line;
  };
  const errorf = (msg: string): false => {
    items.push({ typ: T.Error, pos: start, val: msg, line: startLine });
    return false;
  };
  const charAt = (i: number): string | undefined => {
    const cp = input.codePointAt(i);
    if (cp === undefined) return undefined;
    return cp > 0xffff ? String.fromCodePoint(cp) : input[i];
  };
  const atRightDelim = (): [boolean, boolean] => {
    if (hasRightTrimMarker(input, pos) && input.startsWith(RIGHT, pos + 2)) return [true, true];
    if (input.startsWith(RIGHT, pos)) return [true, false];
    return [false, false];
  };
  const atTerminator = (): boolean => {
    const r = input[pos];
    if (r === undefined) return true;
    if (isSpace(r)) return true;
    switch (r) {
      case '.':
      case ',':
      case '|':
      case ':':
      case ')':
      case '(':
        return true;
    }
    return input.startsWith(RIGHT, pos);
  };
  /** The rune at `pos` when it cannot end a word: a terminator or the end of input can. */
  const nonTerminator = (): string | undefined => (atTerminator() ? undefined : charAt(pos));

  // Emit with line tracking that mirrors Go: an item's line is the line where it starts.
  const emitItem = (typ: T): void => {
    items.push({ typ, pos: start, val: input.slice(start, pos), line: startLine });
    line = startLine + countNewlines(input, start, pos);
    start = pos;
    startLine = line;
  };

  /** Go's lexQuote/lexChar: scans past the closing `quote`; false, with an error item, when unterminated. */
  const scanQuoted = (quote: string, unterminated: string): boolean => {
    for (;;) {
      const c = input[pos++];
      if (c === '\\') {
        const d = input[pos];
        if (d !== undefined && d !== '\n') {
          pos++;
          continue;
        }
      } else if (c !== undefined && c !== '\n') {
        if (c === quote) return true;
        continue;
      }
      return errorf(unterminated);
    }
  };

  const scanNumber = (): boolean => {
    const accept = (valid: string): boolean => {
      const c = input[pos];
      if (c !== undefined && valid.includes(c)) {
        pos++;
        return true;
      }
      return false;
    };
    const acceptRun = (valid: string): void => {
      while (pos < input.length && valid.includes(input.charAt(pos))) pos++;
    };
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    const c = charAt(pos);
    if (isAlphaNumeric(c)) {
      pos += c.length;
      return false;
    }
    return true;
  };

  // lexText
  for (;;) {
    const x = input.indexOf(LEFT, pos);
    if (x < 0) {
      pos = input.length;
      if (pos > start) emitItem(T.Text);
      emitItem(T.EOF);
      return items;
    }
    pos = x;
    let trimLength = 0;
    if (hasLeftTrimMarker(input, pos + LEFT.length)) {
      const txt = input.slice(start, pos);
      trimLength = txt.length - txt.replace(/[ \t\r\n]+$/, '').length;
    }
    pos -= trimLength;
    if (pos > start) emitItem(T.Text);
    pos += trimLength;
    ignore();
    // lexLeftDelim
    pos += LEFT.length;
    const trimSpace = hasLeftTrimMarker(input, pos);
    const afterMarker = trimSpace ? 2 : 0;
    if (input.startsWith('/*', pos + afterMarker)) {
      pos += afterMarker;
      ignore();
      // lexComment
      pos += 2;
      const i = input.indexOf('*/', pos);
      if (i < 0) {
        errorf('unclosed comment');
        return items;
      }
      pos = i + 2;
      const [delim, trim] = atRightDelim();
      if (!delim) {
        errorf('comment ends before closing delimiter');
        return items;
      }
      if (trim) pos += 2;
      pos += RIGHT.length;
      if (trim) {
        while (isSpace(input[pos])) pos++;
      }
      ignore();
      continue;
    }
    emitItem(T.LeftDelim);
    pos += afterMarker;
    ignore();
    parenDepth = 0;
    // lexInsideAction loop
    for (;;) {
      const [delim, trim] = atRightDelim();
      if (delim) {
        if (parenDepth === 0) {
          // lexRightDelim
          if (trim) {
            pos += 2;
            ignore();
          }
          pos += RIGHT.length;
          emitItem(T.RightDelim);
          if (trim) {
            while (isSpace(input[pos])) pos++;
            ignore();
          }
          break;
        }
        errorf('unclosed left paren');
        return items;
      }
      const r = charAt(pos);
      if (r === undefined) {
        errorf('unclosed action');
        return items;
      }
      if (isSpace(r)) {
        // lexSpace
        let numSpaces = 0;
        while (isSpace(input[pos])) {
          pos++;
          numSpaces++;
        }
        if (hasRightTrimMarker(input, pos - 1) && input.startsWith(RIGHT, pos - 1 + 2)) {
          pos--;
          if (numSpaces === 1) continue; // on the delimiter
        }
        emitItem(T.Space);
        continue;
      }
      pos += r.length;
      switch (r) {
        case '=':
          emitItem(T.Assign);
          continue;
        case ':':
          if (input[pos] !== '=') {
            if (pos < input.length) pos++;
            errorf('expected :=');
            return items;
          }
          pos++;
          emitItem(T.Declare);
          continue;
        case '|':
          emitItem(T.Pipe);
          continue;
        case '"':
          if (!scanQuoted('"', 'unterminated quoted string')) return items;
          emitItem(T.String);
          continue;
        case '`': {
          const i = input.indexOf('`', pos);
          if (i < 0) {
            pos = input.length;
            errorf('unterminated raw quoted string');
            return items;
          }
          pos = i + 1;
          emitItem(T.RawString);
          continue;
        }
        case '$': {
          if (atTerminator()) {
            emitItem(T.Variable);
            continue;
          }
          if (!lexFieldOrVariable(T.Variable)) return items;
          continue;
        }
        case "'":
          if (!scanQuoted("'", 'unterminated character constant')) return items;
          emitItem(T.CharConstant);
          continue;
        case '(':
          emitItem(T.LeftParen);
          parenDepth++;
          continue;
        case ')':
          // Go 1.22+ (lex.go, lexInsideAction): the stray paren is an error before it is an item.
          parenDepth--;
          if (parenDepth < 0) {
            errorf('unexpected right paren');
            return items;
          }
          emitItem(T.RightParen);
          continue;
      }
      if (r === '.') {
        const nx = input[pos];
        if (nx === undefined || nx < '0' || nx > '9') {
          if (!lexFieldOrVariable(T.Field)) return items;
          continue;
        }
      }
      if (r === '.' || r === '+' || r === '-' || (r >= '0' && r <= '9')) {
        pos -= 1;
        if (!scanNumber()) {
          errorf(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`);
          return items;
        }
        const sign = input[pos];
        if (sign === '+' || sign === '-') {
          if (!scanNumber() || input[pos - 1] !== 'i') {
            errorf(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`);
            return items;
          }
          emitItem(T.Complex);
        } else emitItem(T.Number);
        continue;
      }
      if (isAlphaNumeric(r)) {
        // lexIdentifier
        for (;;) {
          const c = charAt(pos);
          if (isAlphaNumeric(c)) {
            pos += c.length;
            continue;
          }
          break;
        }
        const word = input.slice(start, pos);
        const bad = nonTerminator();
        if (bad !== undefined) {
          errorf(`bad character ${describeRune(bad)}`);
          return items;
        }
        const kw = KEYWORDS[word];
        if (kw !== undefined && kw > T.Keyword && Object.prototype.hasOwnProperty.call(KEYWORDS, word)) {
          if ((kw === T.Break && !breakOK) || (kw === T.Continue && !continueOK)) emitItem(T.Identifier);
          else emitItem(kw);
        } else if (word === 'true' || word === 'false') emitItem(T.Bool);
        else emitItem(T.Identifier);
        continue;
      }
      const cp = runeAt(r);
      if (cp < 0x80 && cp >= 0x20 && cp < 0x7f) {
        emitItem(T.Char);
        continue;
      }
      errorf(`unrecognized character in action: ${describeRune(r)}`);
      return items;
    }
  }

  function lexFieldOrVariable(typ: T): boolean {
    if (atTerminator()) {
      emitItem(typ === T.Variable ? T.Variable : T.Dot);
      return true;
    }
    for (;;) {
      const c = charAt(pos);
      if (!isAlphaNumeric(c)) break;
      pos += c.length;
    }
    const bad = nonTerminator();
    if (bad !== undefined) {
      errorf(`bad character ${describeRune(bad)}`);
      return false;
    }
    emitItem(typ);
    return true;
  }
}
