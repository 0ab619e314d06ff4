// The --help text of every command; exit codes are documented in each so CI authors find them where they look.

/** The help text for a command, or the overview for undefined. */
export function helpText(command: string | undefined): string {
  const body = command === undefined ? OVERVIEW : COMMANDS[command];
  return `${(body ?? OVERVIEW).trim()}\n\n${EXIT_CODES.trim()}\n`;
}

/** The commands ejc knows, for dispatch and "did you mean". */
export const COMMAND_NAMES = ['run', 'list', 'explain', 'verify', 'merge'] as const;
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
  --shard <i>/<n>        run only shard i of n, balanced by time: scenarios go longest first to the shard
                         with the least time so far, by the per-scenario durations recorded in this
                         version's committed witness (reports/witnesses/), so every machine splits alike;
                         a scenario without a recorded duration goes to the shard holding the fewest
  --expect-failures <f>  a file of scenario ids expected to fail, one per line, # starts a comment;
                         such a failure is reported as expected, and a pass as stale (nonconformant)

Run:
  --seed <n>             the seed of every random choice (default ${DEFAULT_SEED}, so runs repeat by default)
  --timeout <ms>         per-operation timeout (default ${DEFAULT_TIMEOUT_MS})
  --jobs <n>             scenarios run concurrently (default: one per core); the report is the same for any n
  --bail                 stop at the first failed, inconclusive or stale scenario: running ones finish,
                         nothing new starts; the report is valid but marked partial (merge refuses it)
  --keep                 keep every trial directory
  --keep-failed          keep the directories of failed and inconclusive trials

Output:
  --out <dir>            write <dir>/report.json (the witness artifact; written atomically)
  --junit <file>         also write JUnit XML
  --json                 print only the report JSON on stdout

Example:
  ejc run --impl ./my-journal.js --scenario 'cp0*' --out out --junit out/junit.xml`,

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
