package io.prologtool.mcp;

import java.util.concurrent.CompletableFuture;

/**
 * A client in a JVM of its own, for {@link DisconnectTest}: starts a server with the SDK client, starts a
 * goal that would spin for two minutes, prints {@code server PID} and {@code running}, then waits to be
 * killed (so that the server sees its client vanish mid-goal, as when an agent crashes).
 */
public final class DisconnectingClient {

    private DisconnectingClient() {
    }

    /** {@code args}: the server's options. */
    public static void main(String[] args) throws Exception {
        Servers.Connected s = Servers.connect(args);
        String id = s.consult("spin :- repeat, fail.");
        System.out.println("server " + s.server().pid());
        CompletableFuture.runAsync(() -> s.call("run_goal", "load_id", id, "goal", "spin", "time_limit", 120));
        Thread.sleep(1_000);
        System.out.println("running");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
