#!/bin/sh
# Installs the Debian packages a conformance run (`conformance`) or the test suite (`test`) needs, or says how to.
# conformance: strace (kills at every durable syscall, the write sweeps) and faketime (libfaketime: restarts after a
#   clock jump). test: those, Chromium (the HTML report's browser test) and libxml2-utils (xmllint checks JUnit).
# In the ejc checkout (the README's commands), both need better-sqlite3 (an optional dependency: the reference journal's
# storage): when npm could not build it (no prebuilt binary fits and no compiler), python3, make and g++ are installed
# and it is built again. A project that installed ejc (e.g. with --omit=optional, for a --cmd journal) is not asked.
# As root with apt-get it installs what is missing; otherwise it prints the one command to run and exits 1, so a run
# never goes ahead quietly without a dimension. EJC_SKIP_SETUP=1 skips the check: the run then lists what it could not
# test under "not tested" (and `ejc run --require <dimension>` still fails without it).
set -u

purpose=${1:-}
case "$purpose" in
  conformance | test) ;;
  *)
    echo "usage: scripts/setup-machine.sh conformance|test" >&2
    exit 2
    ;;
esac

if [ "${EJC_SKIP_SETUP:-}" = "1" ]; then
  echo "ejc setup: EJC_SKIP_SETUP=1, not checking the machine; the run names every dimension it could not test" >&2
  exit 0
fi

# libfaketime's library as Debian installs it (any architecture), and the faketime command beside it.
has_faketime() {
  command -v faketime >/dev/null 2>&1 || return 1
  for lib in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1 /usr/local/lib/faketime/libfaketime.so.1; do
    [ -e "$lib" ] && return 0
  done
  return 1
}

# npm runs scripts in the package's directory: the checkout's package.json names ejc.
in_checkout() {
  node -e "process.exit(require('./package.json').name === 'effect-journal-conformance' ? 0 : 1)" >/dev/null 2>&1
}

# Whether the checkout's better-sqlite3 opens a database (always true outside the checkout).
sqlite_works() {
  in_checkout || return 0
  node -e "new (require('better-sqlite3'))(':memory:').close()" >/dev/null 2>&1
}

missing() {
  need=""
  if ! sqlite_works; then
    command -v python3 >/dev/null 2>&1 || need="$need python3"
    command -v make >/dev/null 2>&1 || need="$need make"
    command -v g++ >/dev/null 2>&1 || need="$need g++"
  fi
  command -v strace >/dev/null 2>&1 || need="$need strace"
  has_faketime || need="$need faketime"
  if [ "$purpose" = test ]; then
    command -v chromium >/dev/null 2>&1 || need="$need chromium"
    command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
  fi
  echo "${need# }"
}

# Builds better-sqlite3's addon once a compiler is there (e.g. npm ci ran before one was installed).
rebuild_sqlite() {
  sqlite_works && return 0
  # npm removes an optional dependency whose build failed: then only a fresh install from the lock file brings it back.
  if [ -d node_modules/better-sqlite3 ]; then
    echo "ejc setup: building better-sqlite3's native addon (npm rebuild better-sqlite3)" >&2
    npm rebuild better-sqlite3 >&2 && sqlite_works && return 0
  else
    echo "ejc setup: better-sqlite3 was left out (its build failed); installing again now that a compiler is here (npm ci)" >&2
    npm ci >&2 && sqlite_works && return 0
  fi
  echo "ejc setup: better-sqlite3 still does not load (see above): the reference journal cannot run" >&2
  return 1
}

need=$(missing)
if [ -z "$need" ]; then
  rebuild_sqlite
  exit $?
fi

command="apt-get install -y --no-install-recommends $need"
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ejc setup: this machine lacks $need and has no apt-get to install them." >&2
  echo "ejc setup: install the equivalents of the Debian packages: $need (with your system's package manager), then run the command again;" >&2
  echo "ejc setup: or set EJC_SKIP_SETUP=1 to run without them (the report then lists each dimension as not tested)." >&2
  exit 1
fi
if [ "$(id -u)" != "0" ]; then
  echo "ejc setup: this machine lacks $need, and installing them needs root. Run:" >&2
  echo "  sudo apt-get update && sudo $command" >&2
  echo "ejc setup: then run the command again; or set EJC_SKIP_SETUP=1 to run without them (the report then lists each dimension as not tested)." >&2
  exit 1
fi

echo "ejc setup: installing $need (apt-get, for the $purpose run)" >&2
# shellcheck disable=SC2086 # $need is a list of package names
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null; }; then
  echo "ejc setup: \`apt-get update && $command\` failed (see above); fix it and run the command again" >&2
  exit 1
fi
still=$(missing)
if [ -n "$still" ]; then
  echo "ejc setup: after installing, still missing: $still (is /usr/bin on PATH?)" >&2
  exit 1
fi
rebuild_sqlite
