/** A small, strict argument parser: `--flag value`, `--flag=value`, `-o value`, repeatable lists. */
export interface ArgSpec {
  flags: Record<string, 'string' | 'boolean' | 'list'>;
}

export type ParsedArgs =
  | { ok: true; positional: string[]; flags: Record<string, string | boolean | string[]> }
  | { ok: false; message: string };

export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | boolean | string[]> = Object.create(null);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const type = Object.prototype.hasOwnProperty.call(spec.flags, name) ? spec.flags[name] : undefined;
    if (!type) return { ok: false, message: `unknown option ${arg.split('=')[0]}` };
    if (type === 'boolean') {
      flags[name] = eq >= 0 ? body.slice(eq + 1) !== 'false' : true;
      continue;
    }
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : args[++i];
    if (value === undefined) return { ok: false, message: `option --${name} needs a value` };
    if (type === 'list') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
    value = undefined;
  }
  return { ok: true, positional, flags };
}
