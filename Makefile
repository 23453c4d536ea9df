# prologtool: `make demo` and `make test` each install what they need first (on Debian, as root).

SHELL       := /bin/bash
MVN         ?= mvn
MVN_FLAGS   ?= -B -ntp
JPL_JAR     := /usr/share/java/jpl.jar
JPL_VERSION := 7.6.1
# The local repository: the one MVN_FLAGS names with -Dmaven.repo.local=..., else Maven's default.
M2_REPO     ?= $(or $(patsubst -Dmaven.repo.local=%,%,$(filter -Dmaven.repo.local=%,$(MVN_FLAGS))),$(HOME)/.m2/repository)
M2_JPL      := $(M2_REPO)/org/jpl7/jpl/$(JPL_VERSION)/jpl-$(JPL_VERSION).jar
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_ARGS   ?=
BENCH_ARGS  ?=
ATTACK_ARGS ?=
FUZZ_MINUTES ?= 10
FUZZ_BACKEND ?= both
FUZZ_SEED    ?= random
FUZZ_FROM    ?= 0
FUZZ_COUNT   ?= -1
FUZZ_KNOWN   ?= skip

.PHONY: demo test bench attack-cycles fuzz deps swipl build clean

## demo: install SWI-Prolog if needed, build, and run the demo
demo: deps build
	$(MVN) $(MVN_FLAGS) -q -pl examples exec:java -Dexec.args="$(DEMO_ARGS)"

## test: install SWI-Prolog if needed, then build and run every test on real swipl. `install`, not
##       `verify`: each library is installed before examples runs ConsumerProjectTest, a user's project
##       built against the installed artifacts.
test: deps
	$(MVN) $(MVN_FLAGS) install

## bench: install SWI-Prolog if needed, build, and run the benchmark suite (results in docs/bench;
##        BENCH_ARGS="--quick" for a short run, "--out DIR" for another folder)
bench: deps build
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

deps: swipl $(M2_JPL)

# SWI-Prolog 9 (swipl) and its JPL jar, from Debian's packages.
swipl:
	@if ! command -v swipl >/dev/null 2>&1 || [ ! -f $(JPL_JAR) ]; then \
	  echo "Installing SWI-Prolog: apt-get install swi-prolog-nox swi-prolog-java"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq swi-prolog-nox swi-prolog-java >/dev/null; \
	fi
	@swipl --version

# prologtool-jpl compiles against JPL (provided scope) and Maven Central's JPL (jpl:jpl:7.4.0) does not
# work with SWI-Prolog 9: install the jar that ships with it, for this build only. At run time the backend
# loads JPL from the SWI-Prolog installation, so users need no JPL artifact.
$(M2_JPL): | swipl
	$(MVN) $(MVN_FLAGS) -q install:install-file -Dfile=$(JPL_JAR) -DgroupId=org.jpl7 -DartifactId=jpl \
	  -Dversion=$(JPL_VERSION) -Dpackaging=jar -DgeneratePom=true -DlocalRepositoryPath=$(M2_REPO)

clean:
	$(MVN) $(MVN_FLAGS) -q clean
