package io.prologtool.spi;

import io.prologtool.GoalRequest;
import io.prologtool.GoalResult;
import io.prologtool.PrologError;
import io.prologtool.Query;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Query} on a {@link HarnessSession}: the cursor {@code id} of the harness's
 * {@code harness_cursor.pl}, a search waiting in a thread of the session's Prolog. Every fetch goes
 * through the session (one call at a time, as every request of the session).
 */
final class HarnessQuery implements Query {

    private final HarnessSession session;
    private final String cursor;
    private final List<String> variables;
    private final Duration timeLimit;
    /** The session's crash count when the query opened: a later crash ended it. */
    private final int epoch;
    /** Why the query cannot fetch, for a query whose opening failed; else empty. */
    private final Optional<PrologError> failedOpen;
    private volatile boolean exhausted;
    private volatile boolean open;
    /** The error a closed query's fetch reports. */
    private volatile PrologError closedBecause;

    private HarnessQuery(HarnessSession session, String cursor, List<String> variables, Duration timeLimit, int epoch,
                         Optional<PrologError> failedOpen) {
        this.session = session;
        this.cursor = cursor;
        this.variables = List.copyOf(variables);
        this.timeLimit = timeLimit;
        this.epoch = epoch;
        this.failedOpen = failedOpen;
        this.open = failedOpen.isEmpty();
        // a refused query is not exhausted: next(n) throws its refusal instead of returning no answers
        this.exhausted = false;
    }

    static HarnessQuery opened(HarnessSession session, String cursor, List<String> variables, GoalRequest g, int epoch) {
        return new HarnessQuery(session, cursor, variables, g.timeLimit(), epoch, Optional.empty());
    }

    /** A query the harness refused to open (the goal does not read, the sandbox refused it, ...). */
    static HarnessQuery refused(HarnessSession session, PrologError why) {
        return new HarnessQuery(session, "", List.of(), Duration.ZERO, 0, Optional.of(why));
    }

    String cursor() {
        return cursor;
    }

    Duration timeLimit() {
        return timeLimit;
    }

    int epoch() {
        return epoch;
    }

    @Override
    public List<String> variables() {
        return variables;
    }

    @Override
    public GoalResult fetch(int n) {
        if (n < 1 || n > GoalRequest.MAX_ANSWERS_LIMIT) {
            throw new IllegalArgumentException("a fetch takes 1.." + GoalRequest.MAX_ANSWERS_LIMIT + " answers, was " + n);
        }
        if (failedOpen.isPresent()) {
            return GoalResult.failedWith(failedOpen.get());
        }
        if (!open) {
            return GoalResult.failedWith(closedBecause != null ? closedBecause
                    : PrologError.of("cursor_closed", "the query is closed"));
        }
        GoalResult r = session.fetchQuery(this, n);
        if (r.outcome() == io.prologtool.Outcome.CANCELLED) {
            // the search was stopped midway: the query ends, and its cursor goes if the fetch never reached it
            ended(PrologError.of("cursor_closed", "the query was cancelled during a fetch; open it again"));
            boolean interrupted = Thread.interrupted();
            try {
                session.closeQuery(this);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return r;
        }
        if (!r.truncated()) {
            ended(r.error().filter(e -> e.kind().equals("cursor_closed") || e.kind().equals("session_crashed"))
                    .orElse(null));
        }
        return r;
    }

    /** The search ended or the query was closed; {@code why} is what later fetches report (null: closed). */
    void ended(PrologError why) {
        exhausted = true;
        if (open) {
            open = false;
            closedBecause = why;
            session.forgetQuery(this);
        }
    }

    @Override
    public boolean isExhausted() {
        return exhausted;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        ended(null);
        session.closeQuery(this);
    }

    @Override
    public String toString() {
        return "Query[" + cursor + (open ? "" : ", closed") + "]";
    }
}
