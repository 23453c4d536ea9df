package io.prologtool.jpl.internal.jpl7;

import io.prologtool.jpl.internal.JplBridge;
import io.prologtool.jpl.internal.JplCallException;
import org.jpl7.Atom;
import org.jpl7.Compound;
import org.jpl7.JPL;
import org.jpl7.JPLException;
import org.jpl7.PrologException;
import org.jpl7.Query;
import org.jpl7.Term;
import org.jpl7.Util;
import org.jpl7.Variable;
import org.jpl7.fli.Prolog;

import java.nio.file.Path;
import java.util.Map;

/**
 * {@link JplBridge} over JPL 7. Only one Term crosses in each direction per request: the request text
 * as an atom in, the reply text as an atom out (FACTS, "JPL"); every query is closed in {@code finally}.
 * Loaded by the backend through a class loader that sees SWI-Prolog's {@code jpl.jar}.
 */
public final class Jpl7Bridge implements JplBridge {

    /** Public and without arguments: the backend instantiates it reflectively. */
    public Jpl7Bridge() {
    }

    @Override
    public void init(Path libjpl, String[] initArgs) {
        JPL.setNativeLibraryPath(libjpl.toString());
        JPL.setDefaultInitArgs(initArgs.clone());
        JPL.init();
    }

    @Override
    public boolean hasSolution(String goal) {
        return run(new Query(goal), Query::hasSolution);
    }

    @Override
    public boolean loadFile(Path file) {
        return run(new Query(new Compound("load_files", new Term[]{
                new Atom(file.toString()), Util.textToTerm("[silent(true)]")})), Query::hasSolution);
    }

    @Override
    public Runnable attachEngine() {
        int id = Prolog.create_engine();
        if (id < 0) {
            throw new JplCallException(null, "SWI-Prolog could not create an engine for this thread ("
                    + id + ")", null);
        }
        return Prolog::destroy_engine;
    }

    @Override
    public String request(String module, long ticket, String requestText) {
        Query q = new Query(new Compound(":", new Term[]{new Atom(module),
                new Compound("request", new Term[]{
                        new org.jpl7.Integer(ticket), new Atom(requestText), new Variable("Reply")})}));
        return reply(q);
    }

    /** The text bound to {@code Reply} by the one solution of {@code q}. */
    private static String reply(Query q) {
        return run(q, query -> {
            Map<String, Term> solution = query.oneSolution();
            Term reply = solution == null ? null : solution.get("Reply");
            if (!(reply instanceof Atom)) {
                throw new JplCallException(null, "the harness gave no reply text (" + reply + ")", null);
            }
            return reply.name();
        });
    }

    @Override
    public void callQuietly(String module, String predicate, long ticket) {
        Query q = new Query(new Compound(":", new Term[]{new Atom(module),
                new Compound(predicate, new Term[]{new org.jpl7.Integer(ticket)})}));
        try {
            q.hasSolution();
        } catch (RuntimeException ignored) {
            // the caller tries again if it still matters
        } finally {
            q.close();
        }
    }

    @Override
    public int count(String module, String predicate) {
        Query q = new Query(new Compound(":", new Term[]{new Atom(module),
                new Compound(predicate, new Term[]{new Variable("Count")})}));
        return run(q, query -> {
            Map<String, Term> s = query.oneSolution();
            if (s == null) {
                throw new JplCallException(null, module + ":" + predicate + "/1 failed", null);
            }
            return s.get("Count").intValue();
        });
    }

    /** {@code use} on {@code q}, JPL's exceptions as {@link JplCallException}s; {@code q} closed after. */
    private static <T> T run(Query q, java.util.function.Function<Query, T> use) {
        try {
            return use.apply(q);
        } catch (JPLException e) {
            throw translate(e);
        } finally {
            q.close();
        }
    }

    private static JplCallException translate(RuntimeException e) {
        if (e instanceof PrologException pe) {
            String ball = String.valueOf(pe.term());
            return new JplCallException(ball, "Prolog raised " + ball, e);
        }
        return new JplCallException(null, "JPL failed: " + e.getMessage(), e);
    }
}
