// The --help text of every command; exit codes are documented in each so CI authors find them where they look.
import { DEFAULT_SEED, DEFAULT_TIMEOUT_MS, MAX_JOBS, MAX_SEED, MAX_TIMEOUT_MS } from '../shared/defaults.js';

/** The help text for a command, or the overview for undefined. */
export function helpText(command: string | undefined): string {
  const body = command === undefined ? OVERVIEW : COMMANDS[command];
  return `${(body ?? OVERVIEW).trim()}\n\n${EXIT_CODES.trim()}\n`;
}

/** The commands ejc knows, for dispatch and "did you mean". */
export const COMMAND_NAMES = ['run', 'list', 'explain', 'verify', 'merge', 'explore', 'report', 'keygen', 'sign', 'vectors'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export { DEFAULT_SEED, DEFAULT_TIMEOUT_MS, MAX_JOBS, MAX_SEED, MAX_TIMEOUT_MS };

const EXIT_CODES = `
Exit codes:
  0  conformant, or every failure was listed in --expect-failures (the verdict still says
     nonconformant and lists them) (verify, merge: the report's verdict; --integrity-only: intact)
  1  nonconformant: a failure not listed as expected, or a listed one that now passes (stale)
     (verify: also a report with problems, each printed; vectors: a digest that does not match)
  2  inconclusive: a planned crash was not observed, nothing passed, or a trial could not decide
  3  harness or usage error (bad flag or output path, unknown scenario, missing adapter, unreadable
     report, a full disk or another failure of the harness's own environment)
  4  --require named a machine dimension this machine lacks (strace, clock, pid-namespace, sqlite): no trial ran`;

const OVERVIEW = `
ejc: crash-injection conformance harness for effect journals

Usage: ejc <command> [flags]

Commands:
  run       run the scenarios against an implementation and write a conformance report
  list      list the scenarios with their spec references and tags
  explain   describe what one scenario does and asserts
  verify    re-check a report's schema, hashes, counts and verdicts; --trust authenticates, --rerun reproduces
  merge     merge the shard reports of one run into the unsharded report
  explore   generated workloads and crash schedules, checked by the contract model, a violation shrunk
  report    render a report as one self-contained HTML page (verdict, assertions, timelines)
  keygen    create an Ed25519 key pair for signing reports
  sign      sign a report (an in-toto Statement in a DSSE envelope)
  vectors   check a journal's §11 args digest against the shipped test vectors (docs/digest-vectors.json)

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
  --impl-secret <k=v>    an option whose value is secret (a password, a token): passed to the adapter like
                         --impl-option, but through the driver's environment, never its argv; masked in every
                         output and never recorded (reproduce commands read it from $EJC_IMPL_SECRET_<K>);
                         k=env:VAR reads the value from $VAR, so it is not in ejc's own argv either
  --cmd <command>        a command that speaks the ejc wire protocol on stdin/stdout (any language)
  --impl-files <glob>    files the implementation loads, bound into the report's fingerprint by SHA-256
                         (relative to the invoking directory; repeatable; e.g. 'src/**/*.js')

Selection:
  --scenario <glob>      scenario ids to run ("cp03.*", "s8e.*"); repeatable; default all
  --tag <tag>            run scenarios with this tag; repeatable; default all
  --exclude <glob>       leave out scenario ids matching the glob; repeatable (applied before --shard)
  --shard <i>/<n>        run only shard i of n, balanced by time: scenarios go longest first to the shard
                         with the least time so far, by the per-scenario durations recorded in this
                         version's committed witness (reports/witnesses/), so every machine splits alike;
                         a scenario without a recorded duration goes to the shard holding the fewest
  --expect-failures <f>  a file of scenario ids expected to fail, one per line, # starts a comment;
                         such a failure is reported as expected (the verdict stays nonconformant,
                         the exit code is 0 when every failure is listed), a pass as stale (exit 1)

Run:
  --seed <n>             the seed of every random choice, 0 to ${MAX_SEED} (default ${DEFAULT_SEED}, so runs repeat by default)
  --timeout <ms>         per-operation timeout, 1 to ${MAX_TIMEOUT_MS} (default ${DEFAULT_TIMEOUT_MS})
  --jobs <n>             scenarios run concurrently, 1 to ${MAX_JOBS} (default: one per core); the report is the same for any n
  --bail                 stop at the first failed, inconclusive or stale scenario: running ones finish,
                         nothing new starts; the report is valid but marked partial (merge refuses it)
  --keep                 keep every trial directory (under <out>/kept with --out, else in TMPDIR)
  --keep-failed          keep the directories of failed and inconclusive trials (likewise)
                         (a kept directory holds transcript.jsonl: every protocol line both ways, kills, restarts)
  --transcript           keep every trial's transcript.jsonl, also of passing trials (their directory holds only it)
  --require <caps>       capabilities the run must have, comma-separated, repeatable: a machine dimension the
                         machine lacks (strace: syscall kills and write sweeps; clock: clock jumps, by libfaketime or a cc-built shim;
                         pid-namespace: PID-namespace confinement; sqlite: the optional better-sqlite3 the
                         secret scans decode SQLite files with) fails (exit 4) before any trial; without
                         --require a missing one is listed under "not tested"; a journal one (sessions, seeding, kxm,
                         resolution, outerTransactionProbe, sqliteWal, tierMode:<mode>, point:<name>,
                         fault:<name>, or the profile contract = sessions,seeding,kxm,resolution) its hello does
                         not claim fails the gate (exit 1) after the run, naming the scenarios it kept out

Output (checked before the first trial; written atomically and durably, secrets masked):
  --out <dir>            write <dir>/report.json (the witness artifact); a directory that already holds a
                         report is refused (exit 3) unless --force
  --force                replace the report an --out directory already holds
  --junit <file>         also write JUnit XML (another file than the report)
  --html <file>          also write the report as one self-contained HTML page (timelines, filters)
  --json                 print only the report JSON on stdout
  --sign <private key>   also write <dir>/report.dsse.json: the report signed as an in-toto Statement
                         in a DSSE envelope (Ed25519; make a key with ejc keygen; needs --out)

Colour: on a terminal, unless NO_COLOR is set or TERM=dumb; FORCE_COLOR=1 forces it, FORCE_COLOR=0 turns it off.
In GitHub Actions (GITHUB_ACTIONS=true): an ::error annotation per failing scenario and a markdown summary
appended to $GITHUB_STEP_SUMMARY.

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
  --profile <p>          mixed (default: everything the implementation offers), runs (no sessions) or dimensions
                         (mixed with ids shared across runs, sessions and nodes, look-alike public values)
  --timeout <ms>         per-operation timeout (default ${DEFAULT_TIMEOUT_MS})
  --keep, --keep-failed  keep trial directories (under <out>/kept with --out, else in TMPDIR)

Replay:
  --replay <seed>:<path> run exactly the counterexample a report names (fast-check seed and shrink path)
  --machine <features>   what the machine offered when it was found: strace, faketime, strace+faketime or none

Output:
  --out <dir>            write <dir>/report.json (the counterexample is under sections.explore); refused
                         when <dir> already holds a report, unless --force
  --force                replace the report an --out directory already holds
  --junit <file>         also write JUnit XML
  --json                 print only the report JSON on stdout

Clock jumps use libfaketime (Debian: apt-get install faketime) or, without it, a shim built
with cc; N-th syscall kills need strace. Without them those schedules are simply not generated.

Example:
  ejc explore --impl ./my-journal.js --budget 60s --out out`,

  list: `
Usage: ejc list [--tag <tag>] [--json]

Lists every scenario id with its spec reference, tags and title; on a terminal (or with COLUMNS set)
the table is cut to its width.
  --tag <tag>   only scenarios with this tag
  --json        print the scenario descriptions as JSON`,

  explain: `
Usage: ejc explain <scenario-id | prefix | glob> [--json]

Prints what each matching scenario sets up, where it crashes, what it asserts afterwards and which
capabilities it needs: "cp04.after-settle", the prefix "cp04" or the glob "cp0*.tier3". Nothing
matching exits 3 and names the closest ids.
  --json   print the matching scenario descriptions as JSON`,

  verify: `
Usage: ejc verify <report.json> [--trust <public key>]... [--rerun [--impl <module> | --cmd <command>]]

Checks the report from its own bytes: schema, content hash, outcome digest, counts against the
sums over trials, every trial/scenario/report verdict against its evidence, a SIGKILL for every
planned kill of a passed trial, no duplicate or restart writes in a conformant report, no canary
(secret) values anywhere, the implementation fingerprint's structure, and the reproduce commands
against the recorded seed, selection and settings. That proves the report self-consistent, not
who wrote it: anyone can reseal an edited report. An intact report exits with its own verdict's
code (0 conformant or only expected failures, 1 nonconformant, 2 inconclusive), so a CI step that
verifies a downloaded report gates on it; a report with problems exits 1. Given a signature file
(report.dsse.json) instead of a report, it says which report to pass with it.
  --integrity-only          only check the report is intact: exit 0 for any intact report, whatever its verdict

Authenticity:
  --trust <public key>      check the signature envelope (report.dsse.json beside the report) with this
                            Ed25519 public key: a trusted signature over exactly this report, whose
                            in-toto subject is its implementation fingerprint; repeatable (any one suffices)
  --envelope <file>         the envelope, when it is not beside the report

Reproduction (never runs a command taken from the report):
  --rerun                   re-run the report's seed, selection, timeout and expected failures and list
                            every scenario whose outcome differs, and every implementation file that does
  --impl <module>, --impl-option <k=v>, --cmd <command>, --impl-files <glob>
                            your copy of the implementation (a report of the bundled reference journal
                            reruns the bundled one without them)
  --accept-report-command   run the implementation as the report names it (printed first); never implied
  --jobs <n>                scenarios run concurrently (default: one per core)`,

  merge: `
Usage: ejc merge <shard-report.json>... --out <dir>

Merges the reports of "ejc run --shard i/n" for every i of the same n (same implementation,
seed, selection and harness version) into <dir>/report.json. Its outcome digest equals the one
an unsharded run produces. Exits with the merged report's verdict code (0 conformant or only
expected failures, 1 nonconformant, 2 inconclusive).
  --out <dir>          where to write the merged report (required; refused when it holds one, unless --force)
  --force              replace the report --out already holds
  --junit <f>          also write JUnit XML of the merged report
  --integrity-only     exit 0 once the shards merged, whatever the merged verdict

The shards must share the harness build, implementation fingerprint and settings; each shard's
environment is kept as its own entry.`,

  report: `
Usage: ejc report <report.json> --html <file>

Writes one self-contained HTML page of the report: the verdict, the implementation and harness, filters
by verdict and family, every scenario with its assertions (expected against actual, the contract clause),
and each trial's timeline: driver processes, operations, announced crash points, kills with their signal,
restarts, target writes and disclosures. It loads nothing from the network; open the file in a browser.
A report that does not verify is still rendered, with the problems on top, and exits 1.
  --html <file>   where to write the page (required)`,

  keygen: `
Usage: ejc keygen [--out <prefix>]

Creates an Ed25519 key pair for signing reports: <prefix>.key, the private key (PKCS#8 PEM,
mode 0600: keep it secret) and <prefix>.pub, the public key (SPKI PEM: publish it). The default
prefix is ./ejc-signing. Existing files are never overwritten and the private key is never printed.
Both files are standard PEM (RFC 8410): openssl pkey -in <prefix>.key -pubout prints the public key.`,

  sign: `
Usage: ejc sign <report.json> --key <private key> [--out <envelope>]

Verifies the report, then writes it signed: an in-toto Statement v1 (subject: the implementation
fingerprint and each of its files; predicateType
https://effect-journal-conformance.invalid/ConformanceReport/v1; predicate: the report) as the
payload of a DSSE envelope with an Ed25519 signature. Default output: report.dsse.json beside the
report. A report that does not verify is not signed (exit 1). The key file must be mode 0600.
  --key <file>   the private key (ejc keygen writes one)
  --out <file>   where to write the envelope`,
  vectors: `
Usage: ejc vectors [--impl <module> | --cmd <command>] [flags]

Checks the implementation's §11 args digest against the test vectors shipped in
docs/digest-vectors.json: every credential shape §11 names, nesting, escapes, numbers, key order and
"__proto__". The journal is opened in a fresh directory; each vector is prepared as its own effect
and the argsDigest of the row it persisted (listEffects) must equal the vector's v5: digest. A journal
that answers the optional argsProjection operation (docs/protocol.md) has its canonical projection
printed beside the expected one, the first differing character marked. Exit 0 when every digest
matches, 1 when one does not.
  --impl <module>, --impl-option <k=v>, --cmd <command>   the implementation, as for ejc run
  --file <path>     another vectors file of the same shape
  --only <name>     check only this vector (repeatable)
  --timeout <ms>    limit per protocol request (default ${DEFAULT_TIMEOUT_MS})
  --json            print the outcomes as JSON`,
};
