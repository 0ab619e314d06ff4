// The dimensions a run tests only with a tool of the harness machine: strace, a clock mover, PID namespaces, better-sqlite3.

/** A machine dimension, as `--require` names it. */
export type DimensionId = 'strace' | 'clock' | 'pid-namespace' | 'sqlite';

export interface Dimension {
  readonly id: DimensionId;
  /** The tool that opens it. */
  readonly tool: string;
  /** What a run without the tool does not test (and so never claims). */
  readonly untested: string;
  /** What to do on a Debian machine to get it. */
  readonly install: string;
}

/** The dimensions, in the order reports list them. */
export const DIMENSIONS: readonly Dimension[] = [
  {
    id: 'strace',
    tool: 'strace (with ptrace permitted)',
    untested: 'a SIGKILL at every durable write (the sweep.* scenarios, and the generated trials\' kills at the N-th durable syscall)',
    install: 'apt-get install strace (in a container, also allow ptrace: docker run --cap-add SYS_PTRACE)',
  },
  {
    id: 'clock',
    tool: "libfaketime or a C compiler (cc, for ejc's own clock shim)",
    untested: 'restarts after the clock moved hours or days (the generated trials\' clock jumps, and scenarios that restart later): a journal that forgets or discards rows as time passes goes unseen',
    install: 'apt-get install faketime (or gcc, for the shim; or point EJC_LIBFAKETIME at a libfaketime.so.1)',
  },
  {
    id: 'pid-namespace',
    tool: 'PID namespaces (unshare from util-linux, as root or with CAP_SYS_ADMIN)',
    untested: 'that a kill ends every process a driver started, wherever it moved (the process-tree scan alone cannot find a daemon that double-forked, left its session and holds no journal file)',
    install: 'run as root where `unshare --pid --fork` works (util-linux; in a container: --privileged or a seccomp profile allowing unshare), and leave EJC_CONFINEMENT unset',
  },
  {
    id: 'sqlite',
    tool: 'better-sqlite3 (an optional dependency of ejc, with its compiled addon)',
    untested: 'the secret scans that decode a SQLite journal file (values inside its pages, compressed values, full-text index terms); the byte scans of every file still ran',
    install: 'install ejc without --omit=optional, or after a failed native build: apt-get install python3 make g++ && npm rebuild better-sqlite3',
  },
];

/** The dimension named by a --require value (`faketime` is `clock`, `namespaces` is `pid-namespace`), or undefined. */
export function dimensionNamed(name: string): Dimension | undefined {
  const id = ALIASES[name] ?? name;
  return DIMENSIONS.find((d) => d.id === id);
}
const ALIASES: Record<string, DimensionId> = { faketime: 'clock', libfaketime: 'clock', namespaces: 'pid-namespace', 'pid-namespaces': 'pid-namespace' };

