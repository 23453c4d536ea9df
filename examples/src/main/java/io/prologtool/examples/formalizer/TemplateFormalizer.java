package io.prologtool.examples.formalizer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A deterministic {@link Formalizer} for PARARULE-Plus: it translates the dataset's sentence templates
 * into Prolog, one sentence at a time, the way the paper's prompt asks a language model to, so that
 * the whole pipeline can be evaluated without a model and the two readings of negation compared.
 *
 * <p>Templates ({@code E} is a name such as {@code Anne} or {@code the bald eagle}; {@code A}, {@code B},
 * {@code C} are adjectives; {@code V} a verb such as {@code chases}):
 * <table>
 *   <caption>sentences and their clauses</caption>
 *   <tr><td>{@code E is A.}</td><td>{@code a(e).}</td></tr>
 *   <tr><td>{@code E Vs the F.}</td><td>{@code vs(e, f).}</td></tr>
 *   <tr><td>{@code If someone is [not] A [and [not] B ...] then they are C.}</td>
 *       <td>{@code c(X) :- a(X), b(X).} (negated conditions per {@link Negation})</td></tr>
 *   <tr><td>{@code If something Vs the F then it is C.}</td><td>{@code c(X) :- vs(X, f).}</td></tr>
 *   <tr><td>{@code If something is [not] A then it Vs the F.}</td><td>{@code vs(X, f) :- a(X).}</td></tr>
 *   <tr><td>{@code All A people are C.}, {@code A animals are C.}</td><td>{@code c(X) :- a(X).}</td></tr>
 *   <tr><td>question {@code E is [not] A.}</td><td>goal {@code a(e)} or {@code \+ a(e)} (tabled negation
 *       as failure: see below)</td></tr>
 * </table>
 * A sentence outside these templates makes the result {@link Formalization.Malformed}, naming it.
 *
 * <p>Two readings of a negated condition ("if someone is not big"):
 * <ul>
 *   <li>{@link Negation#INITIAL_FACTS}, the paper's (section 4.2, Appendix C.1): every fact is also
 *       stated as {@code initially(a, e)}, and a negated condition is {@code \+ initially(a, X)}: it
 *       holds when the fact was not given, whether or not rules derive it. This reproduces the gold
 *       labels of the original PARARULE-Plus questions. A negated question still reads the full
 *       closure: {@code \+ a(e)}.</li>
 *   <li>{@link Negation#FAILURE}: standard negation as failure, {@code \+ a(X)}. With tabling it is
 *       {@code tnot(a(X))}, the well-founded reading, and the goal is wrapped as
 *       {@code call_delays(G, true)}: an answer that is undefined under the well-founded semantics (a
 *       rule cycle through negation), which SWI-Prolog gives as a conditional success, counts as not
 *       true.</li>
 * </ul>
 * With {@code tabled} every predicate is tabled, so rule cycles terminate; without it the program is
 * plain SLDNF, which loops on some depth-5 contexts (bound the goal with an inference limit). Every
 * predicate is declared dynamic, so that one that nothing defines fails instead of raising
 * {@code existence_error}; clauses are grouped by predicate, so loading gives no discontiguous warning.
 *
 * <pre>{@code
 * Formalization.Parsed f = TemplateFormalizer.paper().translate(
 *         new Problem("p1", "Bob is big. If someone is not small then they are kind.", "Bob is kind."));
 * f.program();   // ... big(bob). kind(X) :- \+ initially(small, X). initially(big, bob).
 * f.goal();      // kind(bob)
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class TemplateFormalizer implements Formalizer {

    /** How a negated condition in a rule body is read. */
    public enum Negation {
        /** The paper's reading: {@code \+ initially(a, X)}, against the facts as given. */
        INITIAL_FACTS,
        /** Standard negation as failure against everything derivable. */
        FAILURE
    }

    private static final String NAME = "(?:[Tt]he [a-z]+(?: [a-z]+)*?|[A-Z][a-z]*)";
    private static final Pattern FACT = Pattern.compile("(" + NAME + ") is (not )?([a-z]+)");
    private static final Pattern RELATION = Pattern.compile("(" + NAME + ") (?!is )([a-z]+) (" + NAME + ")");
    private static final Pattern IF = Pattern.compile("If (?:someone|something) (.+?) then (?:they|it) (.+)");
    private static final Pattern ALL = Pattern.compile("(?:All )?([A-Za-z]+) (?:people|animals|things) are ([a-z]+)");
    private static final Pattern IS_WORD = Pattern.compile("(?:is |are )?(not )?([a-z]+)");
    private static final Pattern VERB_OBJECT = Pattern.compile("(?!is |are |not )([a-z]+) (" + NAME + ")");
    /** Where one sentence ends and the next begins: the space after a full stop. */
    private static final Pattern SENTENCE_BREAK = Pattern.compile("(?<=\\.)\\s+");
    /** What an atom cannot hold: a run of anything but lower-case letters and digits. */
    private static final Pattern NOT_ATOM = Pattern.compile("[^a-z0-9]+");
    /** Compiled once: String.split compiles a pattern of more than one character on every call. */
    private static final Pattern AND = Pattern.compile(" and ", Pattern.LITERAL);

    /**
     * Names of SWI-Prolog built-ins and library predicates (arity 1 or 2) that an English word could
     * clash with; such a word gets the prefix {@code is_} (attribute) or {@code rel_} (verb).
     */
    private static final Set<String> RESERVED = Set.of("atom", "atomic", "callable", "compound", "float",
            "ground", "integer", "is_list", "nonvar", "number", "string", "var", "halt", "ignore", "once",
            "not", "call", "tab", "nl", "write", "print", "read", "writeln", "print_message", "abs", "true",
            "fail", "false", "repeat", "initially", "tnot", "table", "dynamic", "listing", "length",
            "member", "append", "last", "msort", "sort", "succ", "plus", "format", "see", "tell", "told",
            "seen", "assert", "asserta", "assertz", "retract", "abolish", "consult", "include", "ensure",
            "sleep", "shell", "apply", "forall", "between", "numlist", "exclude", "partition");

    private final Negation negation;
    private final boolean tabled;

    private TemplateFormalizer(Negation negation, boolean tabled) {
        this.negation = Objects.requireNonNull(negation, "negation");
        this.tabled = tabled;
    }

    /** The paper's reading of negation ({@code initially/2}), tabled. */
    public static TemplateFormalizer paper() {
        return new TemplateFormalizer(Negation.INITIAL_FACTS, true);
    }

    /** Standard negation as failure with tabling ({@code tnot/1}). */
    public static TemplateFormalizer negationAsFailure() {
        return new TemplateFormalizer(Negation.FAILURE, true);
    }

    /** Standard negation as failure without tabling: plain SLDNF, which can loop on rule cycles. */
    public static TemplateFormalizer plainSldnf() {
        return new TemplateFormalizer(Negation.FAILURE, false);
    }

    /** Any combination of a reading of negation and tabling. */
    public static TemplateFormalizer of(Negation negation, boolean tabled) {
        return new TemplateFormalizer(negation, tabled);
    }

    /** The reading of negated conditions. */
    public Negation negation() {
        return negation;
    }

    /** True when every predicate is tabled. */
    public boolean tabled() {
        return tabled;
    }

    /** {@code template(paper)}, {@code template(naf, tabled)}, {@code template(naf)}, ... */
    @Override
    public String name() {
        return "template(" + (negation == Negation.INITIAL_FACTS ? "paper" : "naf") + (tabled ? ", tabled" : "") + ")";
    }

    /**
     * Translates the problem; the same problem always gives the same program. Earlier attempts are
     * ignored: a deterministic translation has nothing to repair.
     */
    @Override
    public Formalization formalize(Problem problem, List<Attempt> previous) {
        Objects.requireNonNull(problem, "problem");
        try {
            return translate(problem);
        } catch (IllegalArgumentException e) {
            return new Formalization.Malformed(e.getMessage(), "", Optional.empty());
        }
    }

    /**
     * Translates the problem into a program and a goal.
     *
     * @throws IllegalArgumentException naming the first sentence (or the question) that fits no template
     */
    public Formalization.Parsed translate(Problem problem) {
        Objects.requireNonNull(problem, "problem");
        Program program = new Program();
        for (String sentence : sentences(problem.context())) {
            program.add(sentence);
        }
        Literal goal = question(problem.question());
        program.declare(goal);
        String text = program.render();
        String goalText;
        if (negation == Negation.FAILURE && tabled) {
            // Well-founded semantics: a tabled answer may be undefined (a cycle through negation), which
            // SWI-Prolog reports as a conditional success; only an unconditional one (no delays) is TRUE.
            goalText = "call_delays(" + (goal.negated ? "tnot(" + goal.positive() + ")" : goal.positive()) + ", true)";
        } else {
            goalText = goal.negated ? "\\+ " + goal.positive() : goal.positive();
        }
        return new Formalization.Parsed(text, goalText, text, Optional.empty());
    }

    // ------------------------------------------------------------------ the model

    /** {@code pred(args)}; an argument {@code null} is the rule variable X. */
    private record Literal(String pred, List<String> args, boolean negated) {
        String indicator() {
            return pred + "/" + args.size();
        }

        String positive() {
            StringBuilder sb = new StringBuilder(pred.length() + 16).append(pred).append('(');
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                sb.append(i == 0 ? "" : ", ").append(a == null ? "X" : a);
            }
            return sb.append(')').toString();
        }
    }

    private record Clause(Literal head, List<Literal> body) {
    }

    private final class Program {
        final Map<String, List<Clause>> byPredicate = new LinkedHashMap<>();
        final Set<String> declared = new LinkedHashSet<>();
        final List<String> initially = new ArrayList<>();

        void add(String sentence) {
            String s = stripStop(sentence);
            Matcher m;
            if ((m = FACT.matcher(s)).matches()) {
                if (m.group(2) != null) {
                    throw unsupported(sentence, "a negated fact");
                }
                String a = attribute(m.group(3));
                String e = entity(m.group(1));
                clause(new Literal(a, List.of(e), false), List.of());
                initially.add("initially(" + a + ", " + e + ").");
            } else if ((m = IF.matcher(s)).matches()) {
                List<Literal> body = conditions(sentence, m.group(1));
                clause(conclusion(sentence, m.group(2)), body);
            } else if ((m = ALL.matcher(s)).matches()) {
                String a = attribute(m.group(1).toLowerCase(Locale.ROOT));
                clause(new Literal(attribute(m.group(2)), single(), false), List.of(new Literal(a, single(), false)));
            } else if ((m = RELATION.matcher(s)).matches()) {
                clause(new Literal(verb(m.group(2)), List.of(entity(m.group(1)), entity(m.group(3))), false), List.of());
            } else {
                throw unsupported(sentence, "no template");
            }
        }

        private List<Literal> conditions(String sentence, String text) {
            List<Literal> body = new ArrayList<>();
            for (String part : AND.split(text)) {
                Matcher vo = VERB_OBJECT.matcher(part);
                Matcher w;
                if (vo.matches()) {
                    body.add(new Literal(verb(vo.group(1)), relationArgs(vo.group(2)), false));
                } else if ((w = IS_WORD.matcher(part)).matches()
                        && (part.startsWith("is ") || part.startsWith("are ") || !body.isEmpty())) {
                    body.add(new Literal(attribute(w.group(2)), single(), w.group(1) != null));
                } else {
                    throw unsupported(sentence, "the condition '" + part + "'");
                }
            }
            return body;
        }

        private Literal conclusion(String sentence, String text) {
            Matcher vo = VERB_OBJECT.matcher(text);
            if (vo.matches()) {
                return new Literal(verb(vo.group(1)), relationArgs(vo.group(2)), false);
            }
            Matcher w = IS_WORD.matcher(text);
            if (w.matches() && (text.startsWith("is ") || text.startsWith("are "))) {
                if (w.group(1) != null) {
                    throw unsupported(sentence, "a negated conclusion");
                }
                return new Literal(attribute(w.group(2)), single(), false);
            }
            throw unsupported(sentence, "the conclusion '" + text + "'");
        }

        void clause(Literal head, List<Literal> body) {
            byPredicate.computeIfAbsent(head.indicator(), k -> new ArrayList<>()).add(new Clause(head, body));
            declare(head);
            body.forEach(this::declare);
        }

        void declare(Literal l) {
            declared.add(l.indicator());
        }

        String render() {
            StringBuilder out = new StringBuilder();
            out.append("% PARARULE-Plus context translated by TemplateFormalizer: ")
                    .append(negation == Negation.INITIAL_FACTS
                            ? "negated conditions read the initial facts (initially/2)"
                            : "standard negation as failure")
                    .append(tabled ? ", every predicate tabled" : ", untabled (plain SLDNF)").append(".\n");
            String all = String.join(", ", declared);
            out.append(":- dynamic ").append(all).append(".\n");
            if (tabled) {
                out.append(":- table ").append(all).append(".\n");
            }
            boolean paper = negation == Negation.INITIAL_FACTS;
            if (paper) {
                out.append(":- dynamic initially/2.\n");
            }
            for (List<Clause> clauses : byPredicate.values()) {
                for (Clause c : clauses) {
                    out.append(c.head.positive());
                    if (!c.body.isEmpty()) {
                        out.append(" :- ").append(c.body.stream().map(this::bodyLiteral).collect(Collectors.joining(", ")));
                    }
                    out.append(".\n");
                }
            }
            if (paper) {
                initially.forEach(f -> out.append(f).append('\n'));
            }
            return out.toString();
        }

        private String bodyLiteral(Literal l) {
            if (!l.negated) {
                return l.positive();
            }
            if (negation == Negation.INITIAL_FACTS) {
                return "\\+ initially(" + l.pred + ", X)";
            }
            return tabled ? "tnot(" + l.positive() + ")" : "\\+ " + l.positive();
        }
    }

    private static Literal question(String question) {
        String s = stripStop(question);
        Matcher m;
        if ((m = FACT.matcher(s)).matches()) {
            return new Literal(attribute(m.group(3)), List.of(entity(m.group(1))), m.group(2) != null);
        }
        if ((m = RELATION.matcher(s)).matches()) {
            return new Literal(verb(m.group(2)), List.of(entity(m.group(1)), entity(m.group(3))), false);
        }
        throw new IllegalArgumentException("the question fits no PARARULE-Plus template: \"" + question.strip() + "\"");
    }

    // ------------------------------------------------------------------ words to atoms

    static List<String> sentences(String context) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE_BREAK.split(context.strip())) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    private static String stripStop(String sentence) {
        String s = sentence.strip();
        return s.endsWith(".") ? s.substring(0, s.length() - 1).strip() : s;
    }

    private static List<String> single() {
        return java.util.Collections.singletonList(null);
    }

    private static List<String> relationArgs(String object) {
        List<String> args = new ArrayList<>(2);
        args.add(null);
        args.add(entity(object));
        return args;
    }

    /** {@code Anne} to {@code anne}, {@code the bald eagle} to {@code bald_eagle}. */
    private static String entity(String name) {
        String s = name.strip();
        if (s.regionMatches(true, 0, "the ", 0, 4)) {
            s = s.substring(4);
        }
        return atom(s);
    }

    private static String attribute(String word) {
        String a = atom(word);
        return RESERVED.contains(a) ? "is_" + a : a;
    }

    private static String verb(String word) {
        String a = atom(word);
        return RESERVED.contains(a) ? "rel_" + a : a;
    }

    private static String atom(String words) {
        String lower = words.strip().toLowerCase(Locale.ROOT);
        // most words are atoms already: the replacement (a matcher and a copy) only when one is not
        String a = isAtomText(lower) ? lower : NOT_ATOM.matcher(lower).replaceAll("_");
        if (a.isEmpty() || !Character.isLetter(a.charAt(0))) {
            throw new IllegalArgumentException("cannot make an atom of \"" + words + "\"");
        }
        return a;
    }

    /** Only letters a-z and digits: what {@link #NOT_ATOM} would leave as it is. */
    private static boolean isAtomText(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 'a' || c > 'z') && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException unsupported(String sentence, String what) {
        return new IllegalArgumentException("the sentence \"" + sentence.strip()
                + "\" fits no PARARULE-Plus template (" + what + ")");
    }

    @Override
    public String toString() {
        return name();
    }
}
