# prologtool: `make demo` and `make test` each install SWI-Prolog first when it is missing (apt-get, dnf or brew; as root or with sudo);
# `make test` also installs the PostgreSQL server that the JDBC session store's tests start.

SHELL       := /bin/bash
MVN         ?= mvn
MVN_FLAGS   ?= -B -ntp
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_ARGS   ?=
AGENT_ARGS  ?=
BENCH_ARGS  ?=
ATTACK_ARGS ?=
FUZZ_MINUTES ?= 10
FUZZ_BACKEND ?= both
FUZZ_SEED    ?= random
FUZZ_FROM    ?= 0
FUZZ_COUNT   ?= -1
FUZZ_KNOWN   ?= skip

.PHONY: demo agent test test-remote sshd bench attack-cycles fuzz deps swipl postgres build clean

## demo: install SWI-Prolog if needed, build, and run the demo
demo: deps build
	$(MVN) $(MVN_FLAGS) -q -pl examples exec:java -Dexec.args="$(DEMO_ARGS)"

## agent: install SWI-Prolog if needed, build, and start the example Spring Boot application on port 8080: an
##        agent with the Prolog tools behind POST /ask, on a scripted model, or on OpenAI when OPENAI_API_KEY
##        is set; health and metrics under /actuator (AGENT_ARGS="--server.port=9090" for Spring Boot options)
agent: deps build
	$(MVN) $(MVN_FLAGS) -q -pl examples/spring-boot-agent exec:java -Dexec.args="$(AGENT_ARGS)"

## test: install SWI-Prolog and PostgreSQL if needed, then build and run every test on real swipl (the
##       JDBC store's tests start a PostgreSQL server of their own, in a temporary folder). `install`, not
##       `verify`: each library is installed before examples runs ConsumerProjectTest, a user's project
##       built against the installed artifacts.
test: deps postgres
	$(MVN) $(MVN_FLAGS) install

## test-remote: children on another host for real: install OpenSSH's server if needed, then run RemoteSshTest,
##       which makes a throwaway user with a key, starts sshd on a free port of 127.0.0.1, and runs sessions
##       through the documented ssh prefix (consult, goals, a time limit, a cancel, a crash and its restore, no
##       process left); as root. `make test` leaves it out.
test-remote: deps sshd
	$(MVN) $(MVN_FLAGS) -q install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl prologtool-process test -Dtest=RemoteSshTest -Dprologtool.excludedGroups=none

## bench: install SWI-Prolog (and PostgreSQL, for the store rows) if needed, build, and run the benchmark suite (results in docs/bench;
##        BENCH_ARGS="--quick" for a short run, "--out DIR" for another folder)
bench: deps postgres build
	$(MVN) $(MVN_FLAGS) -q -pl examples exec:exec@bench -Dbench.args="$(BENCH_ARGS)"

## attack-cycles: open, attack, close sessions 10,000 times per class of attack on both backends and show
##        that memory, descriptors, threads and atoms stay flat (ATTACK_ARGS="--cycles 500 --backend jpl"
##        for less); the table goes to docs/bench/attack-cycles.md
attack-cycles: deps build
	$(MVN) $(MVN_FLAGS) -q -pl examples exec:exec@attack-cycles -Dattack.args="$(ATTACK_ARGS)"

## fuzz: install SWI-Prolog if needed, build, and run the hostile fuzzer from a random seed (printed) for
##       FUZZ_MINUTES on FUZZ_BACKEND (jpl, process or both), each batch in a child JVM of its own, a new
##       one after a crash; prints every failure as a reproduction and the count of cases and failures, and
##       fails when a case failed. FUZZ_SEED, FUZZ_FROM and FUZZ_COUNT run given cases again (the `again:`
##       line of a failure); FUZZ_KNOWN=run also runs the classes listed as known open. `make test` runs
##       only its bounded run (HostileFuzzConformanceTest).
fuzz: deps build
	$(MVN) $(MVN_FLAGS) -q -pl examples exec:exec@fuzz -Dfuzz.backend=$(FUZZ_BACKEND) -Dfuzz.seed=$(FUZZ_SEED) \
	  -Dfuzz.minutes=$(FUZZ_MINUTES) -Dfuzz.from=$(FUZZ_FROM) -Dfuzz.count=$(FUZZ_COUNT) -Dfuzz.known=$(FUZZ_KNOWN)

## build: compile and install the modules into the local Maven repository, no tests; also writes the MCP
##        server's runnable jar, examples/mcp-server/target/prologtool-mcp-server.jar
build: deps
	$(MVN) $(MVN_FLAGS) -q install -DskipTests

deps: swipl

# SWI-Prolog 9 (swipl) with JPL (its jpl.jar and libjpl), from the system's packages when either is missing:
# apt-get (Debian, Ubuntu: swi-prolog-nox swi-prolog-java; what this repository is tested on), dnf (Fedora:
# pl pl-jpl; untested here) or brew (macOS: swi-prolog, whose build includes JPL; untested here). Nothing
# else is installed: the build needs no JPL artifact, the JPL backend takes JPL from the installation.
swipl:
	@if ! command -v swipl >/dev/null 2>&1 || ! $(HAS_JPL); then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing SWI-Prolog: apt-get install swi-prolog-nox swi-prolog-java"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq swi-prolog-nox swi-prolog-java >/dev/null; \
	  elif command -v dnf >/dev/null 2>&1; then \
	    echo "Installing SWI-Prolog: dnf install pl pl-jpl"; \
	    $(SUDO) dnf install -y -q pl pl-jpl; \
	  elif command -v brew >/dev/null 2>&1; then \
	    echo "Installing SWI-Prolog: brew install swi-prolog"; \
	    brew install swi-prolog; \
	  else \
	    echo "Install SWI-Prolog 9 with JPL (https://www.swi-prolog.org/download/stable), then run make again" >&2; \
	    exit 1; \
	  fi; \
	fi
	@swipl --version

# PostgreSQL's server programs (initdb, pg_ctl) for the JDBC session store's tests, from the system's packages
# when missing: apt-get (postgresql; what this repository is tested on), dnf (postgresql-server; untested here)
# or brew (postgresql; untested here). The tests start their own server, on a free port, as the postgres user
# when run as root; nothing is configured or started here.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL: apt-get install postgresql"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql >/dev/null; \
	  elif command -v dnf >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL: dnf install postgresql-server"; \
	    $(SUDO) dnf install -y -q postgresql-server; \
	  elif command -v brew >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL: brew install postgresql"; \
	    brew install postgresql; \
	  else \
	    echo "Install PostgreSQL's server (initdb, pg_ctl), then run make test again" >&2; \
	    exit 1; \
	  fi; \
	fi

# OpenSSH's server for make test-remote (the test starts its own sshd with a configuration of its own).
sshd:
	@if [ ! -x /usr/sbin/sshd ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing OpenSSH's server: apt-get install openssh-server"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq openssh-server >/dev/null; \
	  elif command -v dnf >/dev/null 2>&1; then \
	    echo "Installing OpenSSH's server: dnf install openssh-server"; \
	    $(SUDO) dnf install -y -q openssh-server; \
	  else \
	    echo "Install OpenSSH's server (/usr/sbin/sshd), then run make test-remote again" >&2; \
	    exit 1; \
	  fi; \
	fi

# Whether the installation has JPL: its jar in <home>/lib (SWI-Prolog's own layout, Debian's too),
# or Debian's /usr/share/java/jpl.jar.
HAS_JPL = { home=$$(swipl --dump-runtime-variables 2>/dev/null | sed -n 's/^PLBASE="\(.*\)";$$/\1/p'); \
            [ -f "$$home/lib/jpl.jar" ] || [ -f /usr/share/java/jpl.jar ]; }

clean:
	$(MVN) $(MVN_FLAGS) -q clean
