// The --help text of every command; exit codes are documented in each so CI authors find them where they look.

/** The help text for a command, or the overview for undefined. */
export function helpText(command: string | undefined): string {
  const body = command === undefined ? OVERVIEW : COMMANDS[command];
  return `${(body ?? OVERVIEW).trim()}\n\n${EXIT_CODES.trim()}\n`;
}

/** The commands ejc knows, for dispatch and "did you mean". */
export const COMMAND_NAMES = ['run', 'list', 'explain', 'verify', 'merge', 'explore'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** The seed used when --seed is not given, so two default runs are the same run. */
export const DEFAULT_SEED = 1;
/** The per-operation timeout when --timeout is not given. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const EXIT_CODES = `
Exit codes:
  0  conformant (verify: the report is valid)
  1  nonconformant (verify: the report has problems; each is printed)
  2  inconclusive: a planned crash was not observed, nothing passed, or a trial could not decide
  3  harness or usage error (bad flag, unknown scenario, missing adapter, unreadable report)`;

const OVERVIEW = `
ejc: crash-injection conformance harness for effect journals

Usage: ejc <command> [flags]

Commands:
  run       run the scenarios against an implementation and write a conformance report
  list      list the scenarios with their spec references and tags
  explain   describe what one scenario does and asserts
  verify    re-check a report's schema, hashes, counts and verdicts
  merge     merge the shard reports of one run into the unsharded report
  explore   generated workloads and crash schedules, checked by the contract model, a violation shrunk

Run "ejc <command> --help" for a command's flags. "ejc --version" prints the harness version.`;

const COMMANDS: Record<string, string> = {
  run: `
Usage: ejc run [flags]

Runs the selected scenarios: each trial starts the implementation in its own driver process,
SIGKILLs its process group at the planned point, restarts it on the same directory and checks
what must hold. Progress goes to stderr; a summary table (or, with --json, only the report) to stdout.

Implementation (default: the bundled reference journal):
  --impl <module>        a JavaScript adapter module exporting createJournal (or a default factory)
  --impl-option <k=v>    an option passed to the adapter's factory; repeatable (only with --impl)
  --cmd <command>        a command that speaks the ejc wire protocol on stdin/stdout (any language)

Selection:
  --scenario <glob>      scenario ids to run ("cp03.*", "s8e.*"); repeatable; default all
  --tag <tag>            run scenarios with this tag; repeatable; default all
  --shard <i>/<n>        run only shard i of n (ids in sorted order, the k-th goes to shard (k mod n)+1)
  --expect-failures <f>  a file of scenario ids expected to fail, one per line, # starts a comment;
                         such a failure is reported as expected, and a pass as stale (nonconformant)

Run:
  --seed <n>             the seed of every random choice (default ${DEFAULT_SEED}, so runs repeat by default)
  --timeout <ms>         per-operation timeout (default ${DEFAULT_TIMEOUT_MS})
  --jobs <n>             scenarios run concurrently (default: one per core); the report is the same for any n
  --keep                 keep every trial directory
  --keep-failed          keep the directories of failed and inconclusive trials

Output:
  --out <dir>            write <dir>/report.json (the witness artifact; written atomically)
  --junit <file>         also write JUnit XML
  --json                 print only the report JSON on stdout

Example:
  ejc run --impl ./my-journal.js --scenario 'cp0*' --out out --junit out/junit.xml`,

  explore: `
Usage: ejc explore [flags]

Generates workloads (interleaved runs and sessions, awkward ids, arbitrary JSON arguments with
secrets in every shape the contract names, tiers, output mappings, faults, racing drivers) and crash
schedules (protocol boundaries, announced points, the N-th durable syscall, kills during recovery,
restarts after a clock jump), runs each as a real trial and checks every observation against the
executable model of the contract (harness/model). The first violation is shrunk to a minimal
counterexample (every shrink step a real trial) and printed with the one command that replays it.
The same seed gives the same trials; --jobs and --shard never change what a trial does.

Implementation (as for run; default: the bundled reference journal):
  --impl <module>, --impl-option <k=v>, --cmd <command>

Exploration:
  --trials <n>           how many trials of the seed stream to run (default ${100})
  --budget <duration>    stop starting trials after 60s, 5m, 1h ... (then --trials is an upper bound)
  --seed <n>             the seed of the stream (default ${DEFAULT_SEED})
  --jobs <n>             trials run concurrently (default: one per core)
  --shard <i>/<n>        run every n-th trial of the stream from the i-th; join the shards with ejc merge
  --max-shrinks <n>      real trials the shrinking may run (default 40)
  --profile <p>          mixed (default: everything the implementation offers) or runs (no sessions)
  --timeout <ms>         per-operation timeout (default ${DEFAULT_TIMEOUT_MS})
  --keep, --keep-failed  keep trial directories

Replay:
  --replay <seed>:<path> run exactly the counterexample a report names (fast-check seed and shrink path)
  --machine <features>   what the machine offered when it was found: strace, faketime, strace+faketime or none

Output:
  --out <dir>            write <dir>/report.json (the counterexample is under sections.explore)
  --junit <file>         also write JUnit XML
  --json                 print only the report JSON on stdout

Clock jumps need libfaketime (Debian: apt-get install faketime); N-th syscall kills need strace.
Without them those schedules are simply not generated.

Example:
  ejc explore --impl ./my-journal.js --budget 60s --out out`,

  list: `
Usage: ejc list [--tag <tag>] [--json]

Lists every scenario id with its spec reference, tags and title.
  --tag <tag>   only scenarios with this tag
  --json        print the scenario descriptions as JSON`,

  explain: `
Usage: ejc explain <scenario-id>

Prints what the scenario sets up, where it crashes, what it asserts afterwards and which
capabilities it needs. An unknown id exits 3 and names the closest ids.`,

  verify: `
Usage: ejc verify <report.json> [--rerun]

Checks the report from its own bytes: schema, content hash, outcome digest, counts against the
sums over trials, every trial/scenario/report verdict against its evidence, a SIGKILL for every
planned kill of a passed trial, no duplicate or restart writes in a conformant report, and no
canary (secret) values anywhere.
  --rerun   also run the report's reproduce command and compare the outcome digests`,

  merge: `
Usage: ejc merge <shard-report.json>... --out <dir>

Merges the reports of "ejc run --shard i/n" for every i of the same n (same implementation,
seed, selection and harness version) into <dir>/report.json. Its outcome digest equals the one
an unsharded run produces. Exits with the merged report's verdict code.
  --out <dir>   where to write the merged report (required)
  --junit <f>   also write JUnit XML of the merged report`,
};
