/** A small, strict argument parser: `--flag value`, `--flag=value`, `-o value`, repeatable lists. */
import { closestMatches, didYouMean } from '../core/suggest.js';

export interface ArgSpec {
  flags: Record<string, 'string' | 'boolean' | 'list'>;
  /** The values of the options that take one of a fixed set (checked by the command; completed by the shell). */
  values?: Record<string, readonly string[]>;
  /** The options whose value is a file or directory (completed by the shell). */
  paths?: readonly string[];
}

export type ParsedArgs =
  | { ok: true; positional: string[]; flags: Record<string, string | boolean | string[]> }
  | { ok: false; message: string };

const spelling = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);

export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const positional: string[] = [];
  const flags = Object.create(null) as Record<string, string | boolean | string[]>;
  // One iterator: an option's value is the argument after it.
  const rest = args.values();
  for (const arg of rest) {
    if (arg === '--') {
      positional.push(...rest);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const typed = eq >= 0 ? arg.slice(0, arg.indexOf('=')) : arg;
    const type = Object.prototype.hasOwnProperty.call(spec.flags, name) ? spec.flags[name] : undefined;
    if (!type) {
      const hint = didYouMean(
        closestMatches(
          name,
          Object.keys(spec.flags).filter((f) => f.length > 1),
          3,
        ),
        spelling,
      );
      return { ok: false, message: `unknown option ${typed}${hint ? `; ${hint}` : ''}` };
    }
    if (type === 'boolean') {
      flags[name] = eq >= 0 ? body.slice(eq + 1) !== 'false' : true;
      continue;
    }
    const value: string | undefined = eq >= 0 ? body.slice(eq + 1) : rest.next().value;
    if (value === undefined) return { ok: false, message: `option ${typed} needs a value` };
    if (type === 'list') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
  }
  return { ok: true, positional, flags };
}
