package io.prologtool.process;

/**
 * Run in a JVM of its own by {@link ProcessResilienceTest}: opens a backend and a session, prints the
 * backend's work folder and exits without closing either.
 */
public final class LeftoverMain {

    public static void main(String[] args) {
        ProcessBackend backend = ProcessBackend.builder().isolation(Isolation.none()).poolSize(1).build();
        backend.open().goal("true").run();
        System.out.println("workdir=" + backend.workDir());
        System.exit(0);
    }
}
