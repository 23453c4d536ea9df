package io.prologtool;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Answers on demand: a search kept open in its session between fetches, so that answer 1,001 costs no
 * recomputation of the first 1,000. Obtained from {@link PrologSession#query(String)} or
 * {@link GoalRequest#query()} (which carries the bounds):
 *
 * <pre>{@code
 * try (Query q = session.goal("between(1, inf, X)").timeLimit(Duration.ofSeconds(1)).query()) {
 *     List<Answer> first = q.next(1000);
 *     Answer next = q.next(1).get(0);                  // X = 1001, found from where the search stopped
 * }
 * for (Answer a : session.query("member(X, [a, b, c])")) {   // closed when the answers run out
 *     ...
 * }
 * }</pre>
 *
 * <p>The time limit applies to each fetch; the depth limit, the inference limit (over the whole search),
 * the sandbox check and output capture apply as for {@link GoalRequest#run()}. A session keeps at most
 * {@link SessionOptions#maxOpenQueries()} queries open; a query closes when its answers run out, when
 * a fetch ends in an error or a bound, on {@link #close()}, and when its session closes. If the Prolog
 * serving the session dies, its open queries end with kind {@code session_crashed}; they are never
 * replayed. Not thread-safe: one thread fetches at a time.
 *
 * <p>A fetch is cancelled like a goal: {@link PrologSession#cancel()} from another thread, an interrupt of
 * the fetching thread, or the session's close. The fetch then returns {@link Outcome#CANCELLED} (without
 * the answers of that fetch; {@link #next(int)} throws {@link QueryStoppedException} with it), and the
 * query is closed: its search was stopped midway, so later fetches return an {@code ERROR} of kind
 * {@code cursor_closed} and {@link #isOpen()} is false. The session and its other queries stay.
 */
public interface Query extends AutoCloseable, Iterable<Answer> {

    /** How many answers {@link #iterator()} and {@link #stream()} fetch at a time. */
    int BATCH = 100;

    /** The goal's variables, in the order they appear in it (those not starting with {@code _}). */
    List<String> variables();

    /**
     * The next answers, at most {@code n}, with the fetch's outcome and output: {@code SUCCESS} with
     * answers, {@code FAILURE} when the search ran out before giving any, or the bound, error or cancel
     * ({@link Outcome#CANCELLED}, which closes the query) that stopped it. Never throws for what the goal
     * does. As {@link GoalRequest#run()} does, the search looks one answer ahead: {@code truncated()} is
     * true when an answer past these {@code n} exists (it was found, with its side effects, and is the
     * first of the next fetch), and false on the page that holds the last answer, after which the query
     * is closed. On a closed query it returns an {@code ERROR} of kind {@code cursor_closed} (or
     * {@code session_crashed} when the session's Prolog died under it).
     *
     * @param n 1 to {@value GoalRequest#MAX_ANSWERS_LIMIT}
     */
    GoalResult fetch(int n);

    /**
     * The next answers, at most {@code n}; an empty list once the answers have run out, and on a closed
     * query ({@link #isExhausted()} is then true), however it closed: {@link #close()}, its session, its
     * end, or a fetch that stopped. {@link #fetch(int)} tells a closed query from one that ran out.
     *
     * @throws QueryStoppedException when this fetch ended in an error, a time limit or another bound
     *                               (the query is then closed), or the query was refused when it opened
     */
    default List<Answer> next(int n) {
        if (isExhausted()) {
            return List.of();
        }
        GoalResult r = fetch(n);
        switch (r.outcome()) {
            case SUCCESS, FAILURE -> {
                return r.answers();
            }
            default -> throw new QueryStoppedException(r);
        }
    }

    /** True once the search has no more answers, or the query was closed. */
    boolean isExhausted();

    /** True until the query is closed (by {@link #close()}, its session, or its end). */
    boolean isOpen();

    /** Ends the search and frees what it holds in the session. Idempotent. */
    @Override
    void close();

    /**
     * The remaining answers, fetched {@value #BATCH} at a time; the query closes when they run out.
     * {@code next()} throws {@link QueryStoppedException} when a fetch stops on an error or a bound.
     */
    @Override
    default Iterator<Answer> iterator() {
        return new Iterator<>() {
            private Iterator<Answer> batch = List.<Answer>of().iterator();

            @Override
            public boolean hasNext() {
                while (!batch.hasNext()) {
                    if (isExhausted()) {
                        return false;
                    }
                    batch = Query.this.next(BATCH).iterator();
                }
                return true;
            }

            @Override
            public Answer next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more answers");
                }
                return batch.next();
            }
        };
    }

    /** The remaining answers as a sequential stream ({@link #iterator()}); closing the stream closes the query. */
    default Stream<Answer> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false)
                .onClose(this::close);
    }
}
