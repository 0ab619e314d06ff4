// The host driver's command line, `--module <path> [--option key=value]...`, read without node:util's parseArgs.

/** The parsed flags, or what is wrong with them (the host prefixes its usage line). */
export function parseHostArgs(argv: readonly string[]): { module: string; option: string[] } | string {
  // parseArgs is loaded on first use with its validators: ~1 ms of every driver's start-up for two flags.
  let module: string | undefined;
  const option: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (flag !== '--module' && flag !== '--option') return `unknown argument ${JSON.stringify(arg)}`;
    let value: string | undefined;
    if (flag !== arg) value = arg.slice(eq + 1);
    // The harness builds this argv: the word after a flag is its value, whatever it starts with.
    else if (i + 1 < argv.length) value = argv[++i];
    if (value === undefined) return `${flag} needs a value`;
    if (flag === '--option') option.push(value);
    else module = value;
  }
  if (module === undefined || module === '') return 'missing --module <path>';
  return { module, option };
}
