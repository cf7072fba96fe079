/**
 * Every write, rename and delete the commands make on disk goes through here, so that it lands
 * only where the user said, whatever the directory already holds:
 *
 * - The directory the user named is resolved once (it may itself be a symbolic link: the user
 *   chose it). Below it no link is ever followed: each path component is checked with lstat, and
 *   a link, or a file where a directory is needed, refuses the operation with the path named.
 * - New content is written to files created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) in a
 *   staging directory made by mkdtemp inside the directory, then renamed into place: a planted
 *   file or link of any name is never written through, and no reader sees half a file.
 * - One run at a time per directory: `.render-clusterclass-lock` holds the pid and host of the
 *   run. A second run refuses, naming the holder; a lock whose process is gone (same host, pid
 *   not alive) is taken over. Holding the lock, a run sweeps the staging directories and
 *   temporary files killed runs left (only names this tool creates, only regular files and
 *   directories, never through links). SIGINT/SIGTERM remove the run's staging and release its
 *   lock before the process exits (interrupt.ts).
 *
 * Limits: this guards against what the directory holds, not against another process swapping a
 * component for a link while the run is under way (Node has no openat); a pid reused by another
 * process after a crash keeps a lock held until someone removes it (the message says so).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { link, lstat, mkdir, mkdtemp, open, readdir, realpath, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { cleanUpOnInterrupt } from './interrupt.js';

/** A path the tool will not write through, or a directory in use: the message names it. */
export class UnsafePath extends Error {}

/** Names this tool creates in a directory it writes (outputs list, lock, staging); never output paths. */
const TOOL_PREFIX = '.render-clusterclass';
const TEMP_PREFIX = `${TOOL_PREFIX}-tmp-`;
const LOCK_FILE = `${TOOL_PREFIX}-lock`;

/** Why `rel` cannot name a file below a directory (undefined: it can). */
export function relativePathProblem(rel: string): string | undefined {
  if (rel === '') return 'an empty path';
  if (rel.startsWith('/')) return 'an absolute path';
  if (/[\0\t\n\r]/.test(rel)) return 'a path with a control character';
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') return 'not a normalised path';
    if (part === '..') return 'a path that leaves the directory (..)';
    if (part.startsWith(TOOL_PREFIX)) return `a name this tool keeps for itself (${TOOL_PREFIX}*)`;
  }
  return undefined;
}

/** What a path below a directory is, found without following links. */
export type Found = { kind: 'missing' | 'file' | 'dir' | 'other' } | { kind: 'link' | 'not-a-directory'; at: string };

const NO_FOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const EXCLUSIVE_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const errCode = (e: unknown): string | undefined => (e as { code?: string }).code;
/** Deletes a file; false when it was already gone (another run's sweep may have taken it). */
const unlinkIfPresent = (abs: string): Promise<boolean> =>
  unlink(abs).then(
    () => true,
    (e: unknown) => (errCode(e) === 'ENOENT' ? false : Promise.reject(e)),
  );
const lstatOrMissing = (abs: string) =>
  lstat(abs).catch((e: unknown) => (errCode(e) === 'ENOENT' ? undefined : Promise.reject(e)));
const randomName = () => `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`;

/** A regular file's text, opened without following a link (undefined: not a regular file). */
async function readNoFollow(abs: string): Promise<string | undefined> {
  const fh = await open(abs, NO_FOLLOW_READ).catch((e: unknown) =>
    errCode(e) === 'ELOOP' || errCode(e) === 'ENOENT' ? undefined : Promise.reject(e),
  );
  if (!fh) return undefined;
  try {
    return (await fh.stat()).isFile() ? await fh.readFile('utf8') : undefined;
  } finally {
    await fh.close();
  }
}

/** readNoFollow, synchronously. */
function readNoFollowSync(abs: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(abs, NO_FOLLOW_READ);
  } catch (e) {
    if (errCode(e) === 'ELOOP' || errCode(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}

export interface FileOwner {
  mode: number;
  uid: number;
  gid: number;
}

/** Creates `abs` exclusively (never through a link or over anything) with `text`, and the mode and owner given. */
async function createExclusive(abs: string, text: string, owner?: FileOwner): Promise<void> {
  const fh = await open(abs, EXCLUSIVE_WRITE, owner ? owner.mode & 0o777 : 0o666);
  try {
    await fh.writeFile(text);
    if (owner) {
      const st = await fh.stat();
      if (st.uid !== owner.uid || st.gid !== owner.gid) await fh.chown(owner.uid, owner.gid);
      // The umask narrowed the mode open() set; setuid/setgid/sticky bits need chmod too.
      await fh.chmod(owner.mode & 0o7777);
    }
  } finally {
    await fh.close();
  }
}

interface Holder {
  pid: number;
  host: string;
}

function parseHolder(text: string | undefined): Holder | undefined {
  try {
    const h = JSON.parse(text ?? '') as Partial<Holder>;
    // A pid of 0 or below would name a process group to process.kill, not a process.
    const { pid, host } = h;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && typeof host === 'string'
      ? { pid, host }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` of this host is running (EPERM: it is, and belongs to someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errCode(e) === 'EPERM';
  }
}

/** A directory the user named, resolved once; every path below it is reached without following links. */
export class SafeDir {
  /** Directories below the root already checked (or made) to be directories, not links. */
  private readonly dirs = new Set<string>(['']);

  private constructor(
    /** The real path of the directory. */
    readonly abs: string,
    /** The directory as the user typed it, for messages. */
    readonly shown: string,
  ) {}

  /**
   * Opens the directory `path` (created when `create`). With `followNamed` (a path the user typed)
   * `path` itself may go through links; without (a path from a package), none of its components may.
   * Undefined: it does not exist and `create` is false.
   */
  static async open(path: string, options: { create: boolean; followNamed: boolean }): Promise<SafeDir | undefined> {
    const shown = path.replace(/(.)\/+$/, '$1');
    let abs: string;
    if (options.followNamed) {
      if (options.create)
        await mkdir(path, { recursive: true }).catch((e: unknown) =>
          errCode(e) === 'EEXIST' ? undefined : Promise.reject(e),
        );
      abs = await realpath(path).catch((e: unknown) => (errCode(e) === 'ENOENT' ? '' : Promise.reject(e)));
      if (abs === '') return undefined;
    } else {
      const rel = posix.normalize(shown);
      const problem = rel === '.' ? undefined : relativePathProblem(rel);
      if (problem) throw new UnsafePath(`${path}: ${problem}`);
      const cwd = await SafeDir.openPresent('.', { create: false, followNamed: true });
      if (!(await cwd.probeDir(rel, options.create))) return undefined;
      abs = join(cwd.abs, rel);
    }
    if (!(await lstat(abs)).isDirectory()) throw new UnsafePath(`${shown} is not a directory`);
    return new SafeDir(abs, shown);
  }

  /**
   * `open` for a directory that is there: made when `create`, or the working directory or one
   * holding a file just found. Gone all the same (another process removed it), it is refused.
   */
  static async openPresent(path: string, options: { create: boolean; followNamed: boolean }): Promise<SafeDir> {
    const dir = await SafeDir.open(path, options);
    if (!dir) throw new UnsafePath(`${path}: the directory is gone (removed by another process)`);
    return dir;
  }

  /** `rel` as the user would see it, for messages. */
  shownPath(rel: string): string {
    return join(this.shown, rel);
  }

  /** What `rel` is, without following links (a link or a non-directory on the way is reported where it is). */
  async probe(rel: string): Promise<Found> {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const at = parts.slice(0, i).join('/');
      const last = i === parts.length;
      if (!last && this.dirs.has(at)) continue;
      const st = await lstatOrMissing(join(this.abs, at));
      if (!st) return { kind: 'missing' };
      if (st.isSymbolicLink()) return { kind: 'link', at };
      if (last && st.isDirectory()) this.dirs.add(at);
      if (last) return { kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other' };
      if (!st.isDirectory()) return { kind: 'not-a-directory', at };
      this.dirs.add(at);
    }
    return { kind: 'missing' };
  }

  /** The reason `found` (of `rel`) is no place for a regular file, as a sentence naming the path. */
  refusal(rel: string, found: Found): string | undefined {
    switch (found.kind) {
      case 'missing':
      case 'file':
        return undefined;
      case 'link':
        return `${this.shownPath(found.at)} is a symbolic link`;
      case 'not-a-directory':
        return `${this.shownPath(found.at)} is not a directory`;
      case 'dir':
        return `${this.shownPath(rel)} is a directory`;
      default:
        return `${this.shownPath(rel)} is not a regular file`;
    }
  }

  /** The text of the regular file `rel` (undefined: there is none); refuses a link, a directory or a device. */
  async read(rel: string): Promise<string | undefined> {
    const found = await this.probe(rel);
    const refusal = this.refusal(rel, found);
    if (refusal) throw new UnsafePath(`${refusal}: refusing to write through it or over it`);
    return found.kind === 'file' ? readNoFollow(join(this.abs, rel)) : undefined;
  }

  /**
   * The text of `rel` when it is a regular file reached without links; undefined for anything else
   * (a link, a directory, nothing). Read synchronously: a re-run of `-o DIR` checks every file it
   * reuses, and for thousands of small files the promise API costs four times the CPU.
   */
  async readIfRegular(rel: string): Promise<string | undefined> {
    const dir = posix.dirname(rel);
    if (dir !== '.' && !this.dirs.has(dir) && (await this.probe(dir)).kind !== 'dir') return undefined;
    return readNoFollowSync(join(this.abs, rel));
  }

  /** Makes the directory `rel` and its parents below the root, each checked to be a directory and not a link. */
  async makeDirs(rel: string): Promise<void> {
    await this.probeDir(rel, true);
  }

  /** Whether the directory `rel` is there (made when `create`), each component checked to be a directory and not a link. */
  private async probeDir(rel: string, create: boolean): Promise<boolean> {
    if (rel === '' || rel === '.') return true;
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const at = parts.slice(0, i).join('/');
      if (this.dirs.has(at)) continue;
      const abs = join(this.abs, at);
      if (create) await mkdir(abs).catch((e: unknown) => (errCode(e) === 'EEXIST' ? undefined : Promise.reject(e)));
      const st = await lstatOrMissing(abs);
      if (!st) return false;
      if (st.isSymbolicLink())
        throw new UnsafePath(`${this.shownPath(at)} is a symbolic link: refusing to write through it`);
      if (!st.isDirectory()) throw new UnsafePath(`${this.shownPath(at)} is not a directory`);
      this.dirs.add(at);
    }
    return true;
  }

  /** Takes the directory's lock: a second run refuses, naming the holder; a dead holder's lock is taken over. */
  async lock(): Promise<LockedDir> {
    // Watching for SIGINT/SIGTERM before the lock exists: no moment where it is held unwatched.
    const held = new LockedDir(this);
    try {
      await held.acquire();
      return held;
    } catch (e) {
      await held.release();
      throw e;
    }
  }
}

/** A directory this run holds the lock of: where it stages new files and renames them into place. */
export class LockedDir {
  private readonly lockPath: string;
  /** The lock's text; its token tells this run's lock from any other, even one an earlier process of the same pid left. */
  private readonly mine = `${JSON.stringify({ pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') })}\n`;
  /** The lock being written, until it is linked to its name (for the signal handler). */
  private draft: string | undefined;
  private staging: Promise<string> | undefined;
  /** The staging directory once made (for the signal handler, which cannot wait for a promise). */
  private stagingPath: string | undefined;
  private staged = 0;
  private readonly stopWatching: () => void;

  constructor(readonly dir: SafeDir) {
    this.lockPath = join(dir.abs, LOCK_FILE);
    this.stopWatching = cleanUpOnInterrupt(() => this.releaseNow());
  }

  /** See SafeDir.lock. */
  async acquire(): Promise<void> {
    const { dir, lockPath } = this;
    for (let attempt = 0; attempt < 3; attempt++) {
      // Written whole, then linked to the lock's name: a lock is never seen half-written.
      this.draft = join(dir.abs, randomName());
      await createExclusive(this.draft, this.mine);
      // The holder's sweep may remove this draft (a temporary name) at any moment: then try again.
      const taken = await link(this.draft, lockPath).then(
        () => true as const,
        (e: unknown) => (errCode(e) === 'EEXIST' ? false : errCode(e) === 'ENOENT' ? 'swept' : Promise.reject(e)),
      );
      await unlinkIfPresent(this.draft);
      this.draft = undefined;
      if (taken === true) return;
      if (taken === 'swept') continue;
      const text = await readNoFollow(lockPath);
      const holder = parseHolder(text);
      if (!holder || text === undefined) {
        if (text === undefined && !(await lstatOrMissing(lockPath))) continue;
        throw new UnsafePath(
          `${dir.shownPath(LOCK_FILE)} is not a lock this tool wrote: remove it if no render-clusterclass run is using ${dir.shown}`,
        );
      }
      if (holder.host !== hostname() || alive(holder.pid)) {
        throw new UnsafePath(
          `${dir.shown} is in use by another render-clusterclass run (pid ${holder.pid} on ${holder.host}); run again once it is done, or remove ${dir.shownPath(LOCK_FILE)} if that process is gone`,
        );
      }
      await this.breakStaleLock(text);
    }
    throw new UnsafePath(`${dir.shown}: cannot take ${dir.shownPath(LOCK_FILE)}: other runs keep taking it`);
  }

  /** Moves a dead run's lock away; if another run replaced it meanwhile (a live lock), puts that one back. */
  private async breakStaleLock(stale: string): Promise<void> {
    const { lockPath } = this;
    const grabbed = join(this.dir.abs, randomName());
    const moved = await rename(lockPath, grabbed).then(
      () => true,
      (e: unknown) => (errCode(e) === 'ENOENT' ? false : Promise.reject(e)),
    );
    if (!moved) return;
    if ((await readNoFollow(grabbed)) !== stale) await link(grabbed, lockPath).catch(() => undefined);
    await unlinkIfPresent(grabbed);
  }

  /** Removes what killed runs left: staging directories and temporary files, only regular ones (never a link). */
  async sweep(): Promise<number> {
    let swept = 0;
    for (const name of await readdir(this.dir.abs)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      const abs = join(this.dir.abs, name);
      const st = await lstatOrMissing(abs);
      if (st?.isDirectory()) await rm(abs, { recursive: true, force: true });
      else if (st?.isFile()) await unlinkIfPresent(abs);
      else continue;
      swept++;
    }
    return swept;
  }

  /** Writes `text` to a new file in the run's staging directory (same filesystem as every target); its path. */
  async stage(text: string, owner?: FileOwner): Promise<string> {
    this.staging ??= mkdtemp(join(this.dir.abs, TEMP_PREFIX)).then((p) => (this.stagingPath = p));
    const file = join(await this.staging, String(this.staged++));
    await createExclusive(file, text, owner);
    return file;
  }

  /** Renames a staged file to `rel`, making its directories (none of them may be a link). */
  async install(staged: string, rel: string): Promise<void> {
    await this.dir.makeDirs(dirname(rel));
    await rename(staged, join(this.dir.abs, rel));
  }

  /** Deletes the file `rel` and the directories that leaves empty, up to the root; whether there was one. */
  async remove(rel: string): Promise<boolean> {
    const removed = await unlinkIfPresent(join(this.dir.abs, rel));
    for (let d = dirname(rel); d !== '.'; d = dirname(d)) {
      if (
        !(await rmdir(join(this.dir.abs, d)).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
    return removed;
  }

  /** Removes the staging directory and the lock (when it is still this run's). */
  async release(): Promise<void> {
    if (this.staging) await rm(await this.staging, { recursive: true, force: true });
    if ((await readNoFollow(this.lockPath)) === this.mine) await unlink(this.lockPath);
    this.stopWatching();
  }

  /**
   * The same, synchronously, for the signal handler. The lock goes first, so that nothing below
   * can keep DIR locked. Writes still queued for the staging directory run on after this returns
   * (in Node's thread pool): the directory is renamed away first, so that they fail instead of
   * making it again, then removed (a file a write in progress adds meanwhile is retried).
   */
  private releaseNow(): void {
    if (this.draft) rmSync(this.draft, { force: true });
    if (
      lstatSync(this.lockPath, { throwIfNoEntry: false })?.isFile() &&
      readFileSync(this.lockPath, 'utf8') === this.mine
    )
      unlinkSync(this.lockPath);
    if (!this.stagingPath) return;
    const gone = `${this.stagingPath}-interrupted`;
    renameSync(this.stagingPath, gone);
    for (let attempt = 1; ; attempt++) {
      try {
        rmSync(gone, { recursive: true, force: true });
        return;
      } catch (e) {
        if (attempt === 10) throw e;
      }
    }
  }
}
